import MigrationReports
import MigrationStore

/// The lost notifications a replay selected, in the order they were signed, each with where it
/// stands at the destination: to send, accepted before, or in doubt.
public struct ReplayPlan: Sendable {
  /// Where one notification stands at the destination.
  public enum Standing: Hashable, Sendable {
    /// Never sent there: it will be sent.
    case new
    /// Sent before and refused or not delivered: it will be sent again.
    case failedBefore(NotificationReplayRow)
    /// Sent before and in doubt, and sent again because `--resend-unconfirmed` says so.
    case resentInDoubt(NotificationReplayRow)
    /// The destination accepted it before: never sent again.
    case accepted(NotificationReplayRow)
    /// Sent before without an answer recorded (the process ended, or the answer never came): it
    /// may have arrived, so it is held back.
    case inDoubt(NotificationReplayRow)

    /// Whether the replay sends it.
    public var isSent: Bool {
      switch self {
      case .new, .failedBefore, .resentInDoubt: return true
      case .accepted, .inDoubt: return false
      }
    }
  }

  /// One selected notification.
  public struct Entry: Sendable {
    /// The notification, as the reports show it.
    public var notification: LostNotification
    /// Where it stands at the destination.
    public var standing: Standing
  }

  /// The endpoint.
  public var destination: ReplayDestination
  /// Every selected notification, in the order they were signed.
  public var entries: [Entry]

  /// The notifications the replay sends, in order.
  public var toSend: [Entry] { entries.filter(\.standing.isSent) }

  /// The notifications the destination accepted before.
  public var alreadyAccepted: Int {
    entries.count {
      if case .accepted = $0.standing { return true }
      return false
    }
  }

  /// The notifications held back because they may have arrived.
  public var heldInDoubt: [Entry] {
    entries.filter {
      if case .inDoubt = $0.standing { return true }
      return false
    }
  }
}
