import Chronology

/// What a run's refresh of the App Store side did, for the reports: the notifications it read,
/// who was due and why, whom it refreshed at what cost, and what is left for the next run.
public struct RefreshFacts: Hashable, Sendable {
  /// Notification history pages read.
  public var notificationPages: Int
  /// Notifications read.
  public var notificationsRead: Int
  /// Notifications Apple never delivered, newly found.
  public var lostNotificationsFound: Int
  /// Customers due when the work began, by reason (`ran_out`, `notification`, `billing_retry`,
  /// `window_lost`).
  public var dueByReason: [String: Int]
  /// Customers refreshed.
  public var refreshed: Int
  /// Incremental history pages fetched.
  public var historyPages: Int
  /// Status calls made.
  public var statusCalls: Int
  /// Customers whose refresh failed.
  public var failed: Int
  /// Customers still due at the end: the comparison reads them as `stale_app_store_data`.
  public var stillDue: Int
  /// Requests the refresh sent of its own accord.
  public var requests: Int
  /// `max-requests` or `max-duration` when the budget stopped the refresh early.
  public var budgetExhausted: String?
  /// Warnings for people.
  public var warnings: [String]
  /// Per environment, the instant the App Store data is current through.
  public var watermarks: [String: Timestamp]
  /// Per environment, whether its change feed can be trusted, and the sweep it needed.
  public var feeds: [FeedHealthFacts] = []
  /// Notifications that failed verification, newly found.
  public var invalidNotifications = 0
  /// Deliveries Apple may still retry, at the end of the refresh.
  public var pendingNotifications = 0
  /// Deliveries a later attempt made, newly found.
  public var deliveredLate = 0
  /// `onlyFailures` pages read to follow pending deliveries.
  public var failurePages = 0
  /// Test notification requests and status checks.
  public var feedRequests = 0
  /// Transactions looked up because a notification that failed verification named a customer
  /// the store did not hold.
  public var transactionLookups = 0
  /// Notifications about customers no account of the store holds.
  public var notificationsOutsideStore = 0

  /// Creates facts.
  public init(
    notificationPages: Int = 0, notificationsRead: Int = 0, lostNotificationsFound: Int = 0,
    dueByReason: [String: Int] = [:], refreshed: Int = 0, historyPages: Int = 0,
    statusCalls: Int = 0, failed: Int = 0, stillDue: Int = 0, requests: Int = 0,
    budgetExhausted: String? = nil, warnings: [String] = [], watermarks: [String: Timestamp] = [:]
  ) {
    self.notificationPages = notificationPages
    self.notificationsRead = notificationsRead
    self.lostNotificationsFound = lostNotificationsFound
    self.dueByReason = dueByReason
    self.refreshed = refreshed
    self.historyPages = historyPages
    self.statusCalls = statusCalls
    self.failed = failed
    self.stillDue = stillDue
    self.requests = requests
    self.budgetExhausted = budgetExhausted
    self.warnings = warnings
    self.watermarks = watermarks
  }

  /// How many customers were due when the work began.
  public var due: Int { dueByReason.values.reduce(0, +) }

  /// One line for people: "12 customers due (9 ran out, 3 notification); 12 refreshed with
  /// 13 history pages and 12 status calls; 0 still due".
  public var sentence: String {
    let reasons = dueByReason.sorted { $0.key < $1.key }.map {
      "\(ReportFormatting.count($0.value)) \($0.key.replacingOccurrences(of: "_", with: " "))"
    }
    var text =
      "\(ReportFormatting.count(notificationPages)) notification page(s) "
      + "(\(ReportFormatting.count(notificationsRead)) notifications, "
      + "\(ReportFormatting.count(lostNotificationsFound)) never delivered); "
      + "\(ReportFormatting.count(due)) customer(s) due"
      + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: ", ")))")
      + "; \(ReportFormatting.count(refreshed)) refreshed with "
      + "\(ReportFormatting.count(historyPages)) history page(s) and "
      + "\(ReportFormatting.count(statusCalls)) status call(s); "
      + "\(ReportFormatting.count(stillDue)) still due"
    if let budgetExhausted {
      text += " (the --\(budgetExhausted) budget ran out"
      if let nights = nightsToClearQueue {
        text +=
          "; at tonight's pace the queue needs \(nights) more run(s) with the same budget, "
          + "oldest first"
      } else if stillDue > 0 {
        text += " before any customer was refreshed: raise it, or the queue never shrinks"
      }
      text += ")"
    }
    if failed > 0 { text += "; \(ReportFormatting.count(failed)) failed" }
    if invalidNotifications > 0 {
      text +=
        "; \(ReportFormatting.count(invalidNotifications)) notification(s) failed verification "
        + "(their customers were asked again, never classified from them)"
    }
    if pendingNotifications > 0 || deliveredLate > 0 {
      text +=
        "; \(ReportFormatting.count(pendingNotifications)) failed deliveries Apple may still "
        + "retry, \(ReportFormatting.count(deliveredLate)) delivered late"
    }
    if notificationsOutsideStore > 0 {
      text +=
        "; \(ReportFormatting.count(notificationsOutsideStore)) notification(s) about customers "
        + "no account holds"
    }
    return text
  }

  /// How many more runs like this one the customers still due need, at the pace this run
  /// refreshed them; `nil` when none are due or none were refreshed (no pace to go by).
  public var nightsToClearQueue: Int? {
    guard stillDue > 0, refreshed > 0 else { return nil }
    return (stillDue + refreshed - 1) / refreshed
  }
}
