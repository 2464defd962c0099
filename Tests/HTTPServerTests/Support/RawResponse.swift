import HTTPServer

/// A response as `RawHTTPClient` read it off the wire.
struct RawResponse {
  var status: Int
  var reason: String
  var headers: HTTPHeaders
  var body: [UInt8]

  var text: String { String(decoding: body, as: UTF8.self) }
}
