import Chronology
import JSON

/// The decoded payload of an App Store server notification (version 2), `signedPayload`.
///
/// The rarer `externalPurchaseToken` member is skipped like any unknown member.
public struct NotificationPayload: SignedPayload, Hashable {
  /// What happened.
  public var notificationType: NotificationType?

  /// The detail of what happened.
  public var subtype: NotificationSubtype?

  /// The notification's unique id.
  public var notificationUUID: String?

  /// The notification format version (`2.0`).
  public var version: String?

  /// When the App Store signed the notification.
  public var signedDate: Timestamp?

  /// The app, transaction and renewal information, for most notification types.
  public var data: NotificationData?

  /// The outcome of a renewal extension, for `RENEWAL_EXTENSION` summaries.
  public var summary: NotificationSummary?

  /// A payload with the given members; every member defaults to absent.
  ///
  /// - Parameters:
  ///   - notificationType: What happened.
  ///   - subtype: The detail of what happened.
  ///   - notificationUUID: The notification's unique id.
  ///   - version: The notification format version (`2.0`).
  ///   - signedDate: When the App Store signed the notification.
  ///   - data: The app, transaction and renewal information, for most notification types.
  ///   - summary: The outcome of a renewal extension, for `RENEWAL_EXTENSION` summaries.
  public init(
    notificationType: NotificationType? = nil,
    subtype: NotificationSubtype? = nil,
    notificationUUID: String? = nil,
    version: String? = nil,
    signedDate: Timestamp? = nil,
    data: NotificationData? = nil,
    summary: NotificationSummary? = nil
  ) {
    self.notificationType = notificationType
    self.subtype = subtype
    self.notificationUUID = notificationUUID
    self.version = version
    self.signedDate = signedDate
    self.data = data
    self.summary = summary
  }

  // MARK: - JSON

  /// Reads the payload object; unknown members are skipped.
  ///
  /// - Parameter reader: A reader positioned before the object.
  /// - Returns: The payload.
  /// - Throws: `JSONError` when the object is malformed or a member has the wrong type.
  public static func read(from reader: inout JSONReader) throws(JSONError) -> NotificationPayload {
    var value = NotificationPayload()
    try reader.beginObject()
    while let key = try reader.nextKey() {
      switch key {
      case "notificationType":
        value.notificationType = try reader.readOptional(NotificationType.self)
      case "subtype": value.subtype = try reader.readOptional(NotificationSubtype.self)
      case "notificationUUID": value.notificationUUID = try reader.readOptionalString()
      case "version": value.version = try reader.readOptionalString()
      case "signedDate": value.signedDate = try reader.readOptionalTimestamp()
      case "data":
        value.data = try reader.readNullIfPresent() ? nil : NotificationData.read(from: &reader)
      case "summary":
        value.summary =
          try reader.readNullIfPresent() ? nil : NotificationSummary.read(from: &reader)
      default: try reader.skipValue()
      }
    }
    return value
  }

  /// Writes the payload object with its present members.
  ///
  /// - Parameter writer: The destination.
  public func write(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("notificationType", notificationType)
    writer.member("subtype", subtype)
    writer.member("notificationUUID", notificationUUID)
    writer.member("version", version)
    writer.member("signedDate", signedDate)
    writer.member("data", data)
    writer.member("summary", summary)
    writer.endObject()
  }
}
