import Chronology
import JSON

/// The body of a notification history request.
///
/// Apple requires `startDate` within the last 180 days (30 in sandbox) and refuses
/// `transactionId` together with `notificationType` (4000019).
public struct NotificationHistoryRequest: Sendable, Hashable {
  /// The earliest notification to include.
  public var startDate: Timestamp
  /// The instant before which to stop.
  public var endDate: Timestamp
  /// Only notifications about this customer's transactions.
  public var transactionId: String?
  /// Only notifications of this type.
  public var notificationType: NotificationType?
  /// Only notifications of this subtype.
  public var notificationSubtype: NotificationSubtype?
  /// Only notifications whose delivery failed.
  public var onlyFailures: Bool?

  /// A request for the given span and filters.
  ///
  /// - Parameters:
  ///   - startDate: The earliest notification.
  ///   - endDate: The instant before which to stop.
  ///   - transactionId: A customer's transaction id.
  ///   - notificationType: A type.
  ///   - notificationSubtype: A subtype.
  ///   - onlyFailures: Only failed deliveries.
  public init(
    startDate: Timestamp, endDate: Timestamp, transactionId: String? = nil,
    notificationType: NotificationType? = nil, notificationSubtype: NotificationSubtype? = nil,
    onlyFailures: Bool? = nil
  ) {
    self.startDate = startDate
    self.endDate = endDate
    self.transactionId = transactionId
    self.notificationType = notificationType
    self.notificationSubtype = notificationSubtype
    self.onlyFailures = onlyFailures
  }

  /// The JSON body.
  ///
  /// - Returns: Compact UTF-8 JSON.
  public func jsonBytes() -> [UInt8] {
    var writer = JSONWriter()
    writer.beginObject()
    writer.member("startDate", startDate)
    writer.member("endDate", endDate)
    writer.member("transactionId", transactionId)
    writer.member("notificationType", notificationType)
    writer.member("notificationSubtype", notificationSubtype)
    writer.member("onlyFailures", onlyFailures)
    writer.endObject()
    return writer.bytes
  }
}
