import Chronology
import JSON

/// The decoded payload of an App Store server notification (version 2), `signedPayload`.
///
/// Which app it is for comes from `data`, else `summary`, else `externalPurchaseToken`, else
/// `appData`, as Apple's verifiers read it (see ``app``).
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

  /// The external purchase token, for `EXTERNAL_PURCHASE_TOKEN` notifications.
  public var externalPurchaseToken: ExternalPurchaseToken?

  /// The app, for notifications about the app itself (such as `RESCIND_CONSENT`).
  public var appData: NotificationAppData?

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
  ///   - externalPurchaseToken: The external purchase token, for `EXTERNAL_PURCHASE_TOKEN`.
  ///   - appData: The app, for notifications about the app itself.
  public init(
    notificationType: NotificationType? = nil,
    subtype: NotificationSubtype? = nil,
    notificationUUID: String? = nil,
    version: String? = nil,
    signedDate: Timestamp? = nil,
    data: NotificationData? = nil,
    summary: NotificationSummary? = nil,
    externalPurchaseToken: ExternalPurchaseToken? = nil,
    appData: NotificationAppData? = nil
  ) {
    self.notificationType = notificationType
    self.subtype = subtype
    self.notificationUUID = notificationUUID
    self.version = version
    self.signedDate = signedDate
    self.data = data
    self.summary = summary
    self.externalPurchaseToken = externalPurchaseToken
    self.appData = appData
  }

  /// The bundle id, app Apple id and environment the notification is for, from the first of
  /// `data`, `summary`, `externalPurchaseToken` and `appData` that is present (all absent when
  /// none is), in the order Apple's verifiers read them.
  public var app: NotificationApp {
    if let data {
      return NotificationApp(
        bundleId: data.bundleId, appAppleId: data.appAppleId, environment: data.environment)
    }
    if let summary {
      return NotificationApp(
        bundleId: summary.bundleId, appAppleId: summary.appAppleId,
        environment: summary.environment)
    }
    if let externalPurchaseToken {
      return NotificationApp(
        bundleId: externalPurchaseToken.bundleId, appAppleId: externalPurchaseToken.appAppleId,
        environment: externalPurchaseToken.environment)
    }
    if let appData {
      return NotificationApp(
        bundleId: appData.bundleId, appAppleId: appData.appAppleId,
        environment: appData.environment)
    }
    return NotificationApp(bundleId: nil, appAppleId: nil, environment: nil)
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
      case "externalPurchaseToken":
        value.externalPurchaseToken =
          try reader.readNullIfPresent() ? nil : ExternalPurchaseToken.read(from: &reader)
      case "appData":
        value.appData =
          try reader.readNullIfPresent() ? nil : NotificationAppData.read(from: &reader)
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
    writer.member("externalPurchaseToken", externalPurchaseToken)
    writer.member("appData", appData)
    writer.endObject()
  }
}
