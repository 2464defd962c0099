/// A network failure the server acts out instead of answering normally.
///
/// Faults let a simulator show a client the failures real networks produce, through real sockets,
/// so the client's error handling is exercised exactly as it would be in production.
public enum HTTPFault: Hashable, Sendable {
  /// Closes the connection without sending a single byte of the response.
  case closeWithoutResponse
  /// Sends the status line and headers, including the full `Content-Length`, then only the first
  /// `afterBytes` bytes of the body, then closes the connection.
  ///
  /// The count is capped at one byte less than the body, so the body is always short; a response
  /// with an empty body (or to a `HEAD` request) cannot be shortened and is closed right after its
  /// headers.
  case truncateBody(afterBytes: Int)
}
