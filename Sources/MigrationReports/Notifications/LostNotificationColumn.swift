/// The columns every listing of lost notifications shows — report.html, summary.md and
/// `explain` — in one place and one order, so that a column added here appears in all three.
/// (`lost-notifications.csv` keeps its own, documented, columns: it is a contract.)
enum LostNotificationColumn: CaseIterable, Hashable, Sendable {
  /// When Apple signed it: the event's instant.
  case signed
  /// `DID_RENEW/BILLING_RECOVERY`.
  case type
  /// The App Store customer (its key).
  case customer
  /// The team accounts linked to that customer.
  case accounts
  /// Apple's first delivery attempt.
  case firstAttempt
  /// Apple's last delivery attempt.
  case lastAttempt
  /// Why the last attempt failed.
  case reason
  /// Where the delivery stands by Apple's retry schedule: lost (Apple gave up), or pending (it
  /// may still retry: not to be replayed yet), with the failed attempts seen.
  case delivery
  /// The notification's UUID, as Apple's history and a replay name it.
  case uuid

  /// The column's heading.
  var title: String {
    switch self {
    case .signed: return "Signed"
    case .type: return "Type"
    case .customer: return "Customer"
    case .accounts: return "Accounts"
    case .firstAttempt: return "First attempt"
    case .lastAttempt: return "Last attempt"
    case .reason: return "Reason"
    case .delivery: return "Delivery"
    case .uuid: return "UUID"
    }
  }

  /// The notification's value in this column, as plain text (accounts separated by spaces).
  ///
  /// - Parameter notification: the notification.
  func text(_ notification: LostNotification) -> String {
    switch self {
    case .signed: return notification.signedDate?.iso8601 ?? ""
    case .type: return notification.kind
    case .customer: return notification.customerKey ?? ""
    case .accounts: return notification.accounts.joined(separator: " ")
    case .firstAttempt: return notification.firstAttempt?.iso8601 ?? ""
    case .lastAttempt: return notification.lastAttempt?.iso8601 ?? ""
    case .reason: return notification.reason ?? ""
    case .uuid: return notification.uuid
    case .delivery:
      let attempts =
        notification.failedAttempts > 0 ? ", \(notification.failedAttempts) failed" : ""
      switch notification.delivery {
      case "pending": return "pending (Apple may still retry it: do not replay yet\(attempts))"
      case "delivered_late":
        return "delivered late\(attempts.isEmpty ? "" : " (\(attempts.dropFirst(2)))")"
      default:
        return "lost"
          + (notification.reportedRunId.map { " (reported by run \($0)\(attempts))" }
            ?? (attempts.isEmpty ? "" : " (\(attempts.dropFirst(2)))"))
      }
    }
  }

  /// Whether the value is an identifier, shown as code.
  var isIdentifier: Bool { self == .type || self == .customer || self == .uuid }
}
