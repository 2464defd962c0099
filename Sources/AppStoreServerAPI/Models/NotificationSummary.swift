import Chronology
import JSON

/// The outcome of a mass renewal-date extension, in `RENEWAL_EXTENSION` / `SUMMARY` notifications.
public struct NotificationSummary: JSONRepresentable, Hashable {
  /// The id of the renewal-date extension request.
  public var requestIdentifier: String?

  /// The environment of the notification.
  public var environment: AppStoreEnvironment?

  /// The app's Apple id.
  public var appAppleId: Int64?

  /// The app's bundle id.
  public var bundleId: String?

  /// The subscription product the extension was for.
  public var productId: String?

  /// The storefronts the extension was for.
  public var storefrontCountryCodes: [String]?

  /// How many subscriptions could not be extended.
  public var failedCount: Int64?

  /// How many subscriptions were extended.
  public var succeededCount: Int64?

  /// A payload with the given members; every member defaults to absent.
  ///
  /// - Parameters:
  ///   - requestIdentifier: The id of the renewal-date extension request.
  ///   - environment: The environment of the notification.
  ///   - appAppleId: The app's Apple id.
  ///   - bundleId: The app's bundle id.
  ///   - productId: The subscription product the extension was for.
  ///   - storefrontCountryCodes: The storefronts the extension was for.
  ///   - failedCount: How many subscriptions could not be extended.
  ///   - succeededCount: How many subscriptions were extended.
  public init(
    requestIdentifier: String? = nil,
    environment: AppStoreEnvironment? = nil,
    appAppleId: Int64? = nil,
    bundleId: String? = nil,
    productId: String? = nil,
    storefrontCountryCodes: [String]? = nil,
    failedCount: Int64? = nil,
    succeededCount: Int64? = nil
  ) {
    self.requestIdentifier = requestIdentifier
    self.environment = environment
    self.appAppleId = appAppleId
    self.bundleId = bundleId
    self.productId = productId
    self.storefrontCountryCodes = storefrontCountryCodes
    self.failedCount = failedCount
    self.succeededCount = succeededCount
  }

  // MARK: - JSON

  /// Reads the payload object; unknown members are skipped.
  ///
  /// - Parameter reader: A reader positioned before the object.
  /// - Returns: The payload.
  /// - Throws: `JSONError` when the object is malformed or a member has the wrong type.
  public static func read(from reader: inout JSONReader) throws(JSONError) -> NotificationSummary {
    var value = NotificationSummary()
    try reader.beginObject()
    while let key = try reader.nextKey() {
      switch key {
      case "requestIdentifier": value.requestIdentifier = try reader.readOptionalString()
      case "environment": value.environment = try reader.readOptional(AppStoreEnvironment.self)
      case "appAppleId": value.appAppleId = try reader.readOptionalInt64()
      case "bundleId": value.bundleId = try reader.readOptionalString()
      case "productId": value.productId = try reader.readOptionalString()
      case "storefrontCountryCodes": value.storefrontCountryCodes = try reader.readOptionalStrings()
      case "failedCount": value.failedCount = try reader.readOptionalInt64()
      case "succeededCount": value.succeededCount = try reader.readOptionalInt64()
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
    writer.member("requestIdentifier", requestIdentifier)
    writer.member("environment", environment)
    writer.member("appAppleId", appAppleId)
    writer.member("bundleId", bundleId)
    writer.member("productId", productId)
    writer.member("storefrontCountryCodes", storefrontCountryCodes)
    writer.member("failedCount", failedCount)
    writer.member("succeededCount", succeededCount)
    writer.endObject()
  }
}
