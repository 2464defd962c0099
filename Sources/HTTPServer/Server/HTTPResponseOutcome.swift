/// How a request ended for its client.
public enum HTTPResponseOutcome: Hashable, Sendable {
  /// The whole response was written.
  case sent
  /// The connection was closed unanswered, as the handler's fault asked.
  case closedWithoutResponse
  /// The headers and part of the body were written, then the connection closed, as the handler's
  /// fault asked.
  case truncated
  /// Writing failed: the client went away, stopped reading past `writeTimeout`, or `stop()` ran
  /// out of grace period.
  case failed
}
