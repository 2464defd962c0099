import Entitlements

/// What one process did while carrying a `link` run out.
public struct LinkOutcome: Sendable, Hashable {
  /// Writes sent and accepted by the App Store.
  public var sent = 0
  /// Writes in doubt (sent by a killed process, answer never recorded) that the App Store was
  /// found to hold already, so they were not sent again.
  public var confirmedWithoutResending = 0
  /// Writes left alone after the App Store was asked again, by reason.
  public var skipped: [LinkSkipReason: Int] = [:]
  /// Writes the App Store refused, or that failed after retries.
  public var failed = 0
  /// History requests made to ask customers again.
  public var rereadRequests = 0
  /// For an undo: transactions bought between the apply and the undo that keep the applied
  /// token (Apple never rewrites a past transaction).
  public var transactionsKeepingToken = 0

  /// Nothing done yet.
  public init() {}
}
