import Chronology
import JSON

/// The app a notification about the app itself is for (`appData`, for example in a
/// `RESCIND_CONSENT` notification).
public struct NotificationAppData: JSONRepresentable, Hashable {
  /// The app's Apple id.
  public var appAppleId: Int64?

  /// The app's bundle id.
  public var bundleId: String?

  /// The environment of the notification.
  public var environment: AppStoreEnvironment?

  /// The customer's app transaction as a JWS.
  public var signedAppTransactionInfo: String?

  /// A value with the given members; every member defaults to absent.
  ///
  /// - Parameters:
  ///   - appAppleId: The app's Apple id.
  ///   - bundleId: The app's bundle id.
  ///   - environment: The environment of the notification.
  ///   - signedAppTransactionInfo: The customer's app transaction as a JWS.
  public init(
    appAppleId: Int64? = nil,
    bundleId: String? = nil,
    environment: AppStoreEnvironment? = nil,
    signedAppTransactionInfo: String? = nil
  ) {
    self.appAppleId = appAppleId
    self.bundleId = bundleId
    self.environment = environment
    self.signedAppTransactionInfo = signedAppTransactionInfo
  }

  // MARK: - JSON

  /// Reads the object; unknown members are skipped.
  ///
  /// - Parameter reader: A reader positioned before the object.
  /// - Returns: The value.
  /// - Throws: `JSONError` when the object is malformed or a member has the wrong type.
  public static func read(from reader: inout JSONReader) throws(JSONError) -> NotificationAppData {
    var value = NotificationAppData()
    try reader.beginObject()
    while let key = try reader.nextKey() {
      switch key {
      case "appAppleId": value.appAppleId = try reader.readOptionalInt64()
      case "bundleId": value.bundleId = try reader.readOptionalString()
      case "environment": value.environment = try reader.readOptional(AppStoreEnvironment.self)
      case "signedAppTransactionInfo":
        value.signedAppTransactionInfo = try reader.readOptionalString()
      default: try reader.skipValue()
      }
    }
    return value
  }

  /// Writes the object with its present members.
  ///
  /// - Parameter writer: The destination.
  public func write(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("appAppleId", appAppleId)
    writer.member("bundleId", bundleId)
    writer.member("environment", environment)
    writer.member("signedAppTransactionInfo", signedAppTransactionInfo)
    writer.endObject()
  }
}
