import Chronology

/// What `notifications replay` sends, and how fast.
public struct ReplayOptions: Sendable {
  /// Which lost notifications.
  public enum Selection: Hashable, Sendable {
    /// Every lost notification the store holds.
    case all
    /// Those a run reported (`--run`).
    case run(String)
    /// Those signed at or after an instant (`--since`).
    case since(Timestamp)
  }

  /// Which lost notifications.
  public var selection: Selection
  /// Notifications sent per second at most (`--rate`).
  public var ratePerSecond: Double
  /// Whether notifications in doubt (sent, no answer recorded) are sent again
  /// (`--resend-unconfirmed`): the team's server may then get them twice.
  public var resendInDoubt: Bool

  /// The default pace: ten a second, well under what a server that takes Apple's own bursts
  /// handles, and a thousand notifications in under two minutes.
  public static let defaultRate = 10.0

  /// Creates options.
  ///
  /// - Parameters:
  ///   - selection: which lost notifications.
  ///   - ratePerSecond: notifications per second at most.
  ///   - resendInDoubt: whether notifications in doubt are sent again.
  public init(
    selection: Selection = .all, ratePerSecond: Double = defaultRate, resendInDoubt: Bool = false
  ) {
    self.selection = selection
    self.ratePerSecond = ratePerSecond
    self.resendInDoubt = resendInDoubt
  }
}
