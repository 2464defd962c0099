/// A request the server answers itself, with an error status, instead of calling the handler.
///
/// The reason goes into the plain-text body of the error response, so whoever wrote the client
/// sees what was wrong with the request without reading the server's source.
struct RequestRejection: Error, Equatable {
  let status: HTTPStatus
  let reason: String

  /// 400: the request does not follow the HTTP/1.1 grammar.
  static func malformed(_ reason: String) -> RequestRejection {
    RequestRejection(status: .badRequest, reason: reason)
  }

  /// 431: the request line and headers (or the chunked trailers) are over the limit.
  static func headerTooLarge(limit: Int) -> RequestRejection {
    RequestRejection(
      status: .requestHeaderFieldsTooLarge,
      reason: "the request line and header fields exceed the server's limit of \(limit) bytes")
  }

  /// 413: the body is over the limit.
  static func bodyTooLarge(limit: Int) -> RequestRejection {
    RequestRejection(
      status: .contentTooLarge,
      reason: "the request body exceeds the server's limit of \(limit) bytes")
  }

  /// 501: a transfer coding other than `chunked`.
  static func unsupportedTransferCoding(_ coding: String) -> RequestRejection {
    RequestRejection(
      status: .notImplemented,
      reason: "the transfer coding \"\(coding)\" is not supported; send the body with "
        + "Content-Length or Transfer-Encoding: chunked")
  }

  /// 505: a protocol major version other than 1.
  static func unsupportedVersion(_ version: String) -> RequestRejection {
    RequestRejection(
      status: .httpVersionNotSupported,
      reason: "\(version) is not supported; this server speaks HTTP/1.1 and HTTP/1.0")
  }

  /// 417: an expectation other than `100-continue`.
  static func unsupportedExpectation(_ expectation: String) -> RequestRejection {
    RequestRejection(
      status: .expectationFailed,
      reason: "the expectation \"\(expectation)\" is not supported; only 100-continue is")
  }
}
