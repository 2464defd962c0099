/// Sends one HTTP request and returns the complete answer: the seam between the client and the
/// network, so that tests drive the client with a scripted transport.
///
/// Implementations must be safe to call from many tasks at once.
public protocol HTTPTransport: Sendable {
  /// Sends `request` and waits for the whole answer.
  ///
  /// - Parameter request: The request.
  /// - Returns: The answer, whatever its status.
  /// - Throws: ``TransportFailure`` when no complete answer arrived.
  func send(_ request: HTTPRequest) async throws(TransportFailure) -> HTTPResponse
}
