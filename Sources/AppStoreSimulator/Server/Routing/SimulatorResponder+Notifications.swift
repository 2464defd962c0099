import AppStoreServerAPI
import Chronology
import CryptoSupport
import JSON

extension SimulatorResponder {
  /// How far back notification history reaches from the world's clock.
  static func notificationHistoryReach(in environment: SimulatedEnvironment) -> Int64 {
    (environment == .production ? 180 : 30) * Timestamp.millisecondsPerDay
  }

  /// `POST /inApps/v1/notifications/history[?paginationToken=…]`: the notifications sent in a
  /// span, optionally for one customer (`transactionId`) or of one type, 20 a page.
  ///
  /// The start must lie within 180 days (production) or 30 days (sandbox) of the world's clock
  /// (4000012); an end in the future means now. A `transactionId` this environment does not know
  /// has no notifications (an empty page, not an error).
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
    var customer: Int?
    if let id = query.transactionId {
      guard let position = try state.customerPosition(owning: id),
        state.isKnown(position, in: environment)
      else { return page([], hasMore: false, token: nil) }
      customer = position
    }
    let matching = try notifications.records(in: environment, state: state).filter { record in
      (customer == nil || record.customer == customer) && bounded.matches(record)
        && start.map {
          PageCursor.Position(key: record.date.millisecondsSince1970, id: record.uuid) > $0
        } ?? true
    }
    let selected = matching.prefix(pageSize)
    let factory = factory(for: environment)
    var items: [NotificationHistoryItem] = []
    for record in selected {
      items.append(
        NotificationHistoryItem(
          notification: try notifications.payload(
            of: record, customer: state.generatedCustomer(at: record.customer), factory: factory,
            signed: signed),
          sendAttempts: NotificationArchive.sendAttempts(of: record, now: now)))
    }
    let hasMore = matching.count > pageSize
    let token = selected.last.map {
      PageCursor(
        scope: scope, query: query.fingerprint,
        position: PageCursor.Position(key: $0.date.millisecondsSince1970, id: $0.uuid),
        issued: behaviour.notificationTokenLifetime == nil
          ? nil : wallClock().millisecondsSince1970
      ).encoded()
    }
    return page(items, hasMore: hasMore, token: hasMore ? token : nil)
  }

  private func page(_ items: [NotificationHistoryItem], hasMore: Bool, token: String?) -> Answer {
    .json { writer in
      NotificationHistoryResponse(paginationToken: token, hasMore: hasMore, items: items).write(
        to: &writer)
    }
  }
}
