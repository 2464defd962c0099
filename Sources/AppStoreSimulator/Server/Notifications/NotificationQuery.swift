import AppStoreServerAPI
import Chronology
import JSON

/// The body of a notification history request, read and checked as Apple does.
struct NotificationQuery: Hashable, Sendable {
  var startDate: Timestamp
  var endDate: Timestamp
  var transactionId: String?
  var notificationType: NotificationType?
  var notificationSubtype: NotificationSubtype?
  var onlyFailures: Bool

  /// Reads the body: 4000000 when it is not a JSON object, 4000015 / 4000016 for a missing or
  /// invalid date, 4000018 for an unknown type or subtype (or a subtype without its type),
  /// 4000006 for a malformed transaction id, 4000019 for a transaction id and a type together,
  /// 4000013 when the end is not after the start.
  static func parse(_ body: [UInt8]) -> Result<NotificationQuery, APIErrorAnswer> {
    let members: [JSONValue.Member]
    do {
      guard case .object(let object) = try JSONValue(parsing: body) else {
        return .failure(.generalBadRequest)
      }
      members = object
    } catch {
      return .failure(.generalBadRequest)
    }
    var values: [String: JSONValue] = [:]
    for member in members { values[member.key] = member.value }
    guard case .number(let startText)? = values["startDate"], let start = Int64(startText) else {
      return .failure(.invalidStartDate)
    }
    guard case .number(let endText)? = values["endDate"], let end = Int64(endText) else {
      return .failure(.invalidEndDate)
    }
    var query = NotificationQuery(
      startDate: Timestamp(millisecondsSince1970: start),
      endDate: Timestamp(millisecondsSince1970: end), onlyFailures: false)
    switch values["notificationType"] {
    case nil, .null?: break
    case .string(let text)?:
      let type = NotificationType(rawValue: text)
      if case .unknown = type { return .failure(.invalidNotificationType) }
      query.notificationType = type
    default: return .failure(.invalidNotificationType)
    }
    switch values["notificationSubtype"] {
    case nil, .null?: break
    case .string(let text)?:
      let subtype = NotificationSubtype(rawValue: text)
      if case .unknown = subtype { return .failure(.invalidNotificationType) }
      query.notificationSubtype = subtype
    default: return .failure(.invalidNotificationType)
    }
    // Apple requires the type a subtype belongs to.
    if query.notificationSubtype != nil && query.notificationType == nil {
      return .failure(.invalidNotificationType)
    }
    switch values["transactionId"] {
    case nil, .null?: break
    case .string(let text)?:
      guard SimulatorResponder.isTransactionIdShaped(text) else {
        return .failure(.invalidTransactionId)
      }
      query.transactionId = text
    default: return .failure(.invalidTransactionId)
    }
    switch values["onlyFailures"] {
    case nil, .null?: break
    case .bool(let flag)?: query.onlyFailures = flag
    default: return .failure(.generalBadRequest)
    }
    if query.transactionId != nil && query.notificationType != nil {
      return .failure(.multipleFilters)
    }
    guard start < end else { return .failure(.startDateAfterEndDate) }
    return .success(query)
  }

  /// Whether a notification passes the type, subtype and failure filters (the transaction
  /// filter is applied by customer).
  ///
  /// - Parameters:
  ///   - type: its type.
  ///   - subtype: its subtype.
  ///   - date: its `signedDate`.
  ///   - isUndelivered: whether no attempt to deliver it succeeded yet.
  func matches(
    type: NotificationType, subtype: NotificationSubtype?, date: Timestamp, isUndelivered: Bool
  ) -> Bool {
    if let notificationType, type != notificationType { return false }
    if let notificationSubtype, subtype != notificationSubtype { return false }
    if onlyFailures && !isUndelivered { return false }
    return date >= startDate && date < endDate
  }

  /// The fingerprint a pagination token must carry: the same body, field for field.
  var fingerprint: String {
    PageCursor.fingerprint(
      [
        "start=\(startDate.millisecondsSince1970)", "end=\(endDate.millisecondsSince1970)",
        "transaction=\(transactionId ?? "")", "type=\(notificationType?.rawValue ?? "")",
        "subtype=\(notificationSubtype?.rawValue ?? "")", "failures=\(onlyFailures)",
      ].joined(separator: ";"))
  }
}
