import MigrationReports

/// What a replay did: per notification sent, what the destination answered.
public struct ReplaySummary: Sendable {
  /// What became of one notification sent.
  public enum Result: Hashable, Sendable {
    /// Answered 2xx.
    case accepted(status: Int)
    /// Answered another status (with the start of the answer's body).
    case refused(status: Int, excerpt: String)
    /// Not delivered (with why).
    case notDelivered(String)
    /// Sent, and no answer came back: it may have arrived.
    case inDoubt(String)

    /// Whether the destination accepted it.
    public var isAccepted: Bool {
      if case .accepted = self { return true }
      return false
    }
  }

  /// The plan the replay carried out.
  public var plan: ReplayPlan
  /// The notifications sent, in order, with what became of each; shorter than the plan's
  /// ``ReplayPlan/toSend`` when a stop request ended the replay early.
  public var sent: [(notification: LostNotification, result: Result)]

  /// Notifications the destination accepted in this replay.
  public var accepted: Int { sent.count { $0.result.isAccepted } }

  /// Notifications refused or not delivered in this replay.
  public var failed: Int {
    sent.count {
      switch $0.result {
      case .refused, .notDelivered: return true
      case .accepted, .inDoubt: return false
      }
    }
  }

  /// Notifications in doubt: held back by the plan, or left without an answer now.
  public var inDoubt: Int {
    plan.heldInDoubt.count
      + sent.count {
        if case .inDoubt = $0.result { return true }
        return false
      }
  }

  /// Whether every selected notification has been accepted by the destination, now or before.
  public var isComplete: Bool {
    plan.alreadyAccepted + accepted == plan.entries.count
  }
}
