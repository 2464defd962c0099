/// How the length of a request body is determined (RFC 9112 §6.3).
enum BodyFraming: Equatable {
  /// No `Content-Length` and no `Transfer-Encoding`: the request has no body.
  case none
  /// A `Content-Length` of this many bytes.
  case contentLength(Int)
  /// `Transfer-Encoding: chunked`.
  case chunked
}
