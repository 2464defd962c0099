import Chronology

/// What a ``RetryPolicy`` says to do after a failed attempt.
public enum RetryDecision: Sendable, Hashable {
  /// Send the request again after this many milliseconds.
  case retry(afterMilliseconds: Int64)
  /// Give up: the failure cannot be cured by sending again, or its attempts are spent.
  case giveUp
  /// The server named an instant to send again (`Retry-After`) later than the policy's longest
  /// wait: give the request up for now, naming the instant.
  case waitTooLong(until: Timestamp)
}
