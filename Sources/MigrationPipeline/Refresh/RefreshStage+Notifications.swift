import AppStoreServerAPI
import Chronology
import CryptoSupport
import MigrationStore

// MARK: - The change feed

extension RefreshStage {
  /// How often one run reads a window again from its start because Apple no longer accepted
  /// its pagination token, before it leaves the window for the next run.
  static let maximumWindowRestarts = 3

  /// What reading an environment's notification history found out about the reading itself.
  struct WindowReading {
    /// Whether the history was read to now.
    var isComplete = false
    /// Why it was not, for people.
    var failure: String?
    /// Whether the first window read was one an earlier run had started (its first pages were
    /// read then).
    var isResumed = false
    /// The span read by this run: from the start of its first window to the end of its last.
    var start: Int64?
    var end: Int64?
    /// A notification failed verification and what it says names no customer: whom it is about
    /// is unknown.
    var unreadableNotification: String?
  }

  /// Reads the notification history of one environment from where the store last read it to
  /// now, queueing every customer a notification names and recording deliveries that failed.
  /// Each page is stored with the customers it named and the next page's token in one
  /// transaction, so a killed read resumes from the next page. A window an earlier run could not
  /// read to its end is read from where it stopped, and then on to now.
  ///
  /// - Parameters:
  ///   - environment: the environment.
  ///   - earliestFetch: when the earliest stored data of the environment was fetched, or `nil`
  ///     when some customer's fetch instant is unknown (stored before schema version 4).
  ///   - clock: the App Store's clock: the history is read to here.
  /// - Returns: how far the reading got.
  func readNotifications(
    in environment: AppStoreEnvironment, earliestFetch: Int64?, clock: Timestamp
  ) async throws -> WindowReading {
    let name = environment.rawValue
    let reach = options.reach(environment)
    // A minute inside Apple's limit, so a small disagreement of clocks is not a refusal.
    let oldestAllowed = clock.millisecondsSince1970 - reach + 60_000
    var reading = WindowReading()
    var feed: NotificationFeedRow
    var start: Int64
    let stored = try store.notificationFeed(environment: name)
    if let stored {
      feed = stored
      start = stored.pagedThroughMilliseconds - options.notificationOverlapMilliseconds
      reading.isResumed = stored.window != nil
    } else {
      // First refresh of this environment: everything since the earliest fetch is unread (less
      // the overlap, as for every window).
      let from = earliestFetch.map { $0 - options.notificationOverlapMilliseconds } ?? Int64.min
      feed = NotificationFeedRow(
        environment: name, pagedThroughMilliseconds: max(from, oldestAllowed),
        watermarkMilliseconds: max(earliestFetch ?? from, oldestAllowed), window: nil)
      start = from
      if earliestFetch == nil {
        reading.failure =
          "the store does not record when some \(name) customers were fetched (stored before "
          + "schema version 4)"
      }
    }
    // At most two windows: the one an earlier run left unfinished, then the rest up to now.
    for _ in 0..<2 {
      if feed.window == nil {
        if start < oldestAllowed {
          if earliestFetch != nil || stored != nil {
            reading.failure =
              "the \(name) data was last brought up to date on "
              + "\(Self.day(max(start, 0))), further back than Apple keeps notifications "
              + "(\(reach / Timestamp.millisecondsPerDay) days)"
          }
          start = oldestAllowed
        }
        let end = clock.millisecondsSince1970
        // Nothing was sent since the last window ended: re-reading its overlap tells nothing.
        guard start < end, end > feed.pagedThroughMilliseconds || stored == nil else {
          try store.saveNotificationFeed(feed, now: now().millisecondsSince1970)
          break
        }
        feed.window = NotificationFeedRow.Window(
          startMilliseconds: start, endMilliseconds: end, paginationToken: nil, pages: 0)
        try store.saveNotificationFeed(feed, now: now().millisecondsSince1970)
      }
      guard let window = feed.window else { break }
      reading.start = min(reading.start ?? window.startMilliseconds, window.startMilliseconds)
      guard try await readWindow(&feed, environment: environment, clock: clock, into: &reading)
      else { return reading }
      reading.end = feed.pagedThroughMilliseconds
      start = feed.pagedThroughMilliseconds - options.notificationOverlapMilliseconds
      if feed.pagedThroughMilliseconds >= clock.millisecondsSince1970 { break }
    }
    reading.isComplete = reading.failure == nil
    reading.end = reading.end ?? feed.pagedThroughMilliseconds
    return reading
  }

  /// Reads the stored window of `feed` page by page to its end.
  ///
  /// - Returns: whether it was read to its end; `false` when the budget ran out or the window
  ///   could not be read (`reading.failure` says why).
  private func readWindow(
    _ feed: inout NotificationFeedRow, environment: AppStoreEnvironment, clock: Timestamp,
    into reading: inout WindowReading
  ) async throws -> Bool {
    let name = environment.rawValue
    var restarts = 0
    while var window = feed.window {
      try StopRequest.checkpoint()
      guard reserveRequest() else {
        reading.failure = "the refresh's budget ran out before the \(name) history was read"
        return false
      }
      let request = NotificationHistoryRequest(
        startDate: Timestamp(millisecondsSince1970: window.startMilliseconds),
        endDate: Timestamp(millisecondsSince1970: window.endMilliseconds))
      let page: NotificationHistoryResponse
      do {
        page = try await client.notificationHistory(
          request, paginationToken: window.paginationToken, environment: environment)
      } catch {
        if case .unauthorized = error.kind { throw error }
        if case .cancelled = error.kind { throw CancellationError() }
        if error.errorCode == .paginationTokenExpired || error.errorCode == .invalidPaginationToken,
          window.paginationToken != nil
        {
          restarts += 1
          guard restarts <= Self.maximumWindowRestarts else {
            reading.failure =
              "its pagination tokens kept expiring before the next page was asked "
              + "(\(restarts - 1) restarts)"
            return false
          }
          // The token is no longer accepted: read the window again from its start.
          window.paginationToken = nil
          window.pages = 0
          feed.window = window
          try store.saveNotificationFeed(feed, now: now().millisecondsSince1970)
          summary.windowRestarts += 1
          reading.isResumed = false
          continue
        }
        if error.errorCode == .startDateTooFarInPast {
          // Apple keeps less than the configured reach (or the clocks disagree by more than a
          // minute): what it no longer has cannot be read, and the window starts a day later.
          if window.pages == 0 && window.paginationToken == nil {
            reading.failure =
              "Apple refused the \(name) notification window starting "
              + "\(Timestamp(millisecondsSince1970: window.startMilliseconds).iso8601) as too "
              + "far back"
          }
          window.startMilliseconds += Timestamp.millisecondsPerDay
          window.paginationToken = nil
          window.pages = 0
          feed.window = window.startMilliseconds < window.endMilliseconds ? window : nil
          if feed.window == nil { feed.pagedThroughMilliseconds = window.endMilliseconds }
          try store.saveNotificationFeed(feed, now: now().millisecondsSince1970)
          continue
        }
        reading.failure = error.description
        return false
      }
      summary.notificationPages += 1
      observer?.counted(Self.name, "notification pages", by: 1)
      let updated = feed
      feed = try store.writeTransaction {
        var feed = updated
        for item in page.items { try take(item, environment: name) }
        for item in page.invalidItems {
          if let unknown = try take(invalid: item, environment: name) {
            reading.unreadableNotification = unknown
          }
        }
        if page.hasMore, let token = page.paginationToken {
          window.paginationToken = token
          window.pages += 1
          feed.window = window
        } else {
          feed.pagedThroughMilliseconds = window.endMilliseconds
          feed.window = nil
        }
        try store.saveNotificationFeed(feed, now: now().millisecondsSince1970)
        return feed
      }
    }
    return true
  }

  /// One verified notification: its customer is due unless the stored data is newer; a
  /// delivery that failed is recorded; a test notification is matched with the feed's proof; a
  /// customer outside the store is followed or listed.
  private func take(_ item: NotificationHistoryItem, environment: String) throws {
    summary.notificationsRead += 1
    let payload = item.notification.payload
    if payload.notificationType == .test {
      try noteTestNotification(payload, environment: environment)
      return
    }
    let transaction = payload.data?.transaction?.payload
    let renewal = payload.data?.renewalInfo?.payload
    let ids = [
      transaction?.originalTransactionId, transaction?.transactionId,
      renewal?.originalTransactionId,
    ].compactMap { $0 }
    let customerId = try store.customer(
      appTransactionId: transaction?.appTransactionId ?? renewal?.appTransactionId,
      orOwningAnyOf: ids)
    let kind = [payload.notificationType?.rawValue, payload.subtype?.rawValue].compactMap { $0 }
      .joined(separator: "/")
    try recordDelivery(item, environment: environment, customerId: customerId)
    guard let customerId, let customer = try store.customer(id: customerId) else {
      summary.notificationsOutsideStore += 1
      try noteOutsideStore(payload, environment: environment)
      return
    }
    // An incomplete customer is the backfill's: it will fetch everything anew.
    guard customer.isHistoryComplete, customer.areStatusesComplete else { return }
    if let signed = payload.signedDate?.millisecondsSince1970 {
      try store.noteNotified(customerId: customerId, signedMilliseconds: signed)
    }
    let fetched = try store.statusesFetched(customerId: customerId)
    if let fetched, let signed = payload.signedDate?.millisecondsSince1970,
      signed < fetched - options.fetchedDataToleranceMilliseconds
    {
      summary.notificationsAlreadyKnown += 1
      return
    }
    let date = payload.signedDate.map { String($0.iso8601.prefix(10)) } ?? "an unknown date"
    try store.enqueueRefresh(
      RefreshQueueRow(
        customerId: customerId, reason: .notification,
        detail: "a \(kind.isEmpty ? "notification" : kind) notification of \(date) says it "
          + "changed after its data was fetched"
          + (fetched.map { " on \(Timestamp(millisecondsSince1970: $0).iso8601.prefix(10))" } ?? ""),
        dataMilliseconds: fetched),
      now: now().millisecondsSince1970)
  }

  /// One notification that failed verification: recorded with its reason; the customer its
  /// payload names, read without trust, becomes due — a verified answer then decides, never the
  /// payload.
  ///
  /// - Returns: a sentence when it names no customer that can be read (then whom it is about
  ///   is unknown), else `nil`.
  private func take(invalid item: InvalidNotificationHistoryItem, environment: String) throws
    -> String?
  {
    let unverified = item.unverified
    let customerId = try unverified.flatMap {
      try store.customer(appTransactionId: $0.appTransactionId, orOwningAnyOf: $0.transactionIds)
    }
    let key =
      unverified?.notificationUUID.map { "uuid:\($0)" }
      ?? "sha256:\(SHA256.hexDigest(item.jws.utf8))"
    let isNew = try store.storeInvalidNotification(
      InvalidNotificationRow(
        key: key, environment: environment, reason: item.reason, type: unverified?.kind,
        signedMilliseconds: unverified?.signedDate?.millisecondsSince1970,
        customerId: customerId, signedPayload: item.jws),
      foundAt: now().millisecondsSince1970)
    if isNew { summary.invalidNotifications += 1 }
    guard let unverified, !unverified.transactionIds.isEmpty || unverified.appTransactionId != nil
    else {
      return "a \(environment) notification failed verification (\(item.reason)) and names no "
        + "customer that can be read"
    }
    if let customerId {
      try enqueueHint(customerId, named: unverified, reason: item.reason)
    }
    // A customer the store does not hold is looked up at the App Store after the window
    // (``lookUpInvalidNotifications(in:)``): only its verified answer says who it is.
    return nil
  }

  /// Makes a customer an invalid notification names due (`hint`), unless its data was fetched
  /// after the notification was signed or the backfill still owns it.
  ///
  /// - Parameters:
  ///   - customerId: the store's customer.
  ///   - unverified: what the notification says, read without trust.
  ///   - reason: why it failed verification.
  func enqueueHint(_ customerId: Int64, named unverified: UnverifiedNotification, reason: String)
    throws
  {
    guard let customer = try store.customer(id: customerId),
      customer.isHistoryComplete, customer.areStatusesComplete
    else { return }
    let fetched = try store.statusesFetched(customerId: customerId)
    if let fetched, let signed = unverified.signedDate?.millisecondsSince1970,
      signed < fetched - options.fetchedDataToleranceMilliseconds
    {
      return
    }
    let date = unverified.signedDate.map { String($0.iso8601.prefix(10)) } ?? "an unknown date"
    try store.enqueueRefresh(
      RefreshQueueRow(
        customerId: customerId, reason: .hint,
        detail: "a \(unverified.kind) notification of \(date) that failed verification "
          + "(\(reason)) names it; only the App Store's verified answer decides",
        dataMilliseconds: fetched),
      now: now().millisecondsSince1970)
  }

  /// A test notification in the history: the proof that the history lists what Apple sends.
  private func noteTestNotification(_ payload: NotificationPayload, environment: String) throws {
    guard var health = try store.feedHealth(environment: environment),
      let uuid = payload.notificationUUID, health.testUUID == uuid,
      health.testSeenMilliseconds == nil
    else { return }
    health.testSeenMilliseconds =
      payload.signedDate?.millisecondsSince1970 ?? appStoreNow().millisecondsSince1970
    try store.saveFeedHealth(health, now: now().millisecondsSince1970)
  }
}
