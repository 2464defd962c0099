import HTTPServer
import JSON

/// What an endpoint answers, before faults and latency: a status and a JSON body.
struct Answer: Sendable {
  var status: Int
  var body: [UInt8]
  var errorCode: Int64?

  /// A 200 with a JSON body.
  static func json(_ write: (inout JSONWriter) -> Void) -> Answer {
    var writer = JSONWriter()
    write(&writer)
    return Answer(status: 200, body: writer.bytes, errorCode: nil)
  }

  /// A 200 with no body.
  static let empty = Answer(status: 200, body: [], errorCode: nil)

  /// An App Store error.
  static func error(_ error: APIErrorAnswer) -> Answer {
    Answer(status: error.status, body: error.body, errorCode: error.code)
  }

  /// The HTTP response.
  var response: HTTPResponse {
    HTTPResponse(
      status: HTTPStatus(code: status),
      headers: body.isEmpty ? [:] : ["Content-Type": "application/json"], body: body)
  }
}
