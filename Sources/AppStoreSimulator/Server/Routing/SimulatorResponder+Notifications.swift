import AppStoreServerAPI
import Chronology
import CryptoSupport
import JSON

extension SimulatorResponder {
  /// How far back notification history reaches from the world's clock.
  static func notificationHistoryReach(in environment: SimulatedEnvironment) -> Int64 {
    (environment == .production ? 180 : 30) * Timestamp.millisecondsPerDay
  }

  /// One entry of an environment's history: a notification of the world, or a test
  /// notification the server was asked to send.
  private enum HistoryEntry {
    case record(NotificationRecord)
    case test(TestNotifications.Test)

    var date: Timestamp {
      switch self {
      case .record(let record): record.date
      case .test(let test): test.date
      }
    }

    var uuid: String {
      switch self {
      case .record(let record): record.uuid
      case .test(let test): test.uuid
      }
    }

    var position: PageCursor.Position {
      PageCursor.Position(key: date.millisecondsSince1970, id: uuid)
    }
  }

  /// `POST /inApps/v1/notifications/history[?paginationToken=…]`: the notifications sent in a
  /// span, optionally for one customer (`transactionId`) or of one type, 20 a page.
  ///
  /// The start must lie within 180 days (production) or 30 days (sandbox) of the world's clock
  /// (4000012); an end in the future means now. A `transactionId` this environment does not know
  /// has no notifications (an empty page, not an error). Without a version 2 notification URL
  /// the history lists nothing; notifications the configuration omits are left out.
  func notificationHistory(_ request: ServerRequest, in environment: SimulatedEnvironment)
    throws -> Answer
  {
    let query: NotificationQuery
    switch NotificationQuery.parse(request.body) {
    case .failure(let error): return .error(error)
    case .success(let parsed): query = parsed
    }
    let now = state.now
    guard
      query.startDate >= now.adding(milliseconds: -Self.notificationHistoryReach(in: environment))
    else { return .error(.startDateTooFarInPast) }
    var bounded = query
    bounded.endDate = min(query.endDate, now.adding(milliseconds: 1))
    let scope = environment.rawValue
    var start: PageCursor.Position?
    let tokens = request.queryValues(named: "paginationToken")
    if let token = tokens.first {
      guard tokens.count == 1, let cursor = PageCursor.decode(token), cursor.scope == scope,
        cursor.query == query.fingerprint
      else { return .error(.invalidPaginationToken) }
      if let lifetime = behaviour.notificationTokenLifetime, let issued = cursor.issued,
        wallClock().millisecondsSince1970 - issued
          > lifetime.components.seconds * 1000
          + lifetime.components.attoseconds / 1_000_000_000_000_000
      {
        return .error(.paginationTokenExpired)
      }
      start = cursor.position
    }
    guard notificationURL(of: environment).listsHistory else {
      return page([], hasMore: false, token: nil)
    }
    var customer: Int?
    if let id = query.transactionId {
      guard let position = try state.customerPosition(owning: id),
        state.isKnown(position, in: environment)
      else { return page([], hasMore: false, token: nil) }
      customer = position
    }
    var entries: [HistoryEntry] = try notifications.records(in: environment, state: state)
      .filter { record in
        !record.omitted && (customer == nil || record.customer == customer)
          && bounded.matches(
            type: record.type, subtype: record.subtype, date: record.date,
            isUndelivered: DeliverySchedule.isUndelivered(record, in: environment, now: now))
      }.map(HistoryEntry.record)
    if customer == nil {
      entries += testNotifications.sent(in: environment, by: now).filter {
        bounded.matches(type: .test, subtype: nil, date: $0.date, isUndelivered: false)
      }.map(HistoryEntry.test)
      entries.sort { ($0.date, $0.uuid) < ($1.date, $1.uuid) }
    }
    let matching = entries.filter { entry in start.map { entry.position > $0 } ?? true }
    let selected = matching.prefix(pageSize)
    let factory = factory(for: environment)
    var items: [NotificationHistoryItem] = []
    for entry in selected {
      switch entry {
      case .record(let record):
        items.append(
          NotificationHistoryItem(
            notification: try notifications.payload(
              of: record, customer: state.generatedCustomer(at: record.customer),
              factory: factory, signed: signed),
            sendAttempts: DeliverySchedule.attempts(of: record, in: environment, now: now)))
      case .test(let test):
        items.append(
          NotificationHistoryItem(
            notification: try notifications.payload(of: test, factory: factory, signed: signed),
            sendAttempts: [SendAttempt(attemptDate: test.date, sendAttemptResult: .success)]))
      }
    }
    let hasMore = matching.count > pageSize
    let token = selected.last.map {
      PageCursor(
        scope: scope, query: query.fingerprint, position: $0.position,
        issued: behaviour.notificationTokenLifetime == nil
          ? nil : wallClock().millisecondsSince1970
      ).encoded()
    }
    return page(items, hasMore: hasMore, token: hasMore ? token : nil)
  }

  /// `POST /inApps/v1/notifications/test`: sends a `TEST` notification to the environment's
  /// URL and answers its token; `4040007` when the environment has none.
  func requestTestNotification(in environment: SimulatedEnvironment) -> Answer {
    guard notificationURL(of: environment) != .none else {
      return .error(.serverNotificationURLNotFound)
    }
    let test = testNotifications.send(in: environment, at: state.now)
    return .json { writer in
      writer.beginObject()
      writer.field("testNotificationToken", test.token)
      writer.endObject()
    }
  }

  /// `GET /inApps/v1/notifications/test/{token}`: the test notification and its delivery
  /// attempt (delivered at once); `4040008` for a token this environment never gave.
  func testNotificationStatus(_ token: String, in environment: SimulatedEnvironment) throws
    -> Answer
  {
    guard let test = testNotifications.test(token: token, in: environment) else {
      return .error(.testNotificationNotFound)
    }
    let payload = try notifications.payload(
      of: test, factory: factory(for: environment), signed: signed)
    return .json { writer in
      writer.beginObject()
      writer.field("signedPayload", payload.jws)
      writer.key("sendAttempts")
      writer.beginArray()
      SendAttempt(attemptDate: test.date, sendAttemptResult: .success).write(to: &writer)
      writer.endArray()
      writer.endObject()
    }
  }

  private func page(_ items: [NotificationHistoryItem], hasMore: Bool, token: String?) -> Answer {
    .json { writer in
      NotificationHistoryResponse(paginationToken: token, hasMore: hasMore, items: items).write(
        to: &writer)
    }
  }
}
