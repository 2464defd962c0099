import Chronology
import JSON

/// The app and the signed transaction and renewal information a notification is about.
public struct NotificationData: JSONRepresentable, Hashable {
  /// The app's Apple id.
  public var appAppleId: Int64?

  /// The app's bundle id.
  public var bundleId: String?

  /// The app's build version.
  public var bundleVersion: String?

  /// The environment of the notification.
  public var environment: AppStoreEnvironment?

  /// The transaction as a JWS.
  public var signedTransactionInfo: String?

  /// The subscription's renewal information as a JWS.
  public var signedRenewalInfo: String?

  /// The subscription's status.
  public var status: SubscriptionStatus?

  /// Why the customer asked for a refund (for `CONSUMPTION_REQUEST`).
  public var consumptionRequestReason: ConsumptionRequestReason?

  /// A payload with the given members; every member defaults to absent.
  ///
  /// - Parameters:
  ///   - appAppleId: The app's Apple id.
  ///   - bundleId: The app's bundle id.
  ///   - bundleVersion: The app's build version.
  ///   - environment: The environment of the notification.
  ///   - signedTransactionInfo: The transaction as a JWS.
  ///   - signedRenewalInfo: The subscription's renewal information as a JWS.
  ///   - status: The subscription's status.
  ///   - consumptionRequestReason: Why the customer asked for a refund (for `CONSUMPTION_REQUEST`).
  public init(
    appAppleId: Int64? = nil,
    bundleId: String? = nil,
    bundleVersion: String? = nil,
    environment: AppStoreEnvironment? = nil,
    signedTransactionInfo: String? = nil,
    signedRenewalInfo: String? = nil,
    status: SubscriptionStatus? = nil,
    consumptionRequestReason: ConsumptionRequestReason? = nil
  ) {
    self.appAppleId = appAppleId
    self.bundleId = bundleId
    self.bundleVersion = bundleVersion
    self.environment = environment
    self.signedTransactionInfo = signedTransactionInfo
    self.signedRenewalInfo = signedRenewalInfo
    self.status = status
    self.consumptionRequestReason = consumptionRequestReason
  }

  // MARK: - JSON

  /// Reads the payload object; unknown members are skipped.
  ///
  /// - Parameter reader: A reader positioned before the object.
  /// - Returns: The payload.
  /// - Throws: `JSONError` when the object is malformed or a member has the wrong type.
  public static func read(from reader: inout JSONReader) throws(JSONError) -> NotificationData {
    var value = NotificationData()
    try reader.beginObject()
    while let key = try reader.nextKey() {
      switch key {
      case "appAppleId": value.appAppleId = try reader.readOptionalInt64()
      case "bundleId": value.bundleId = try reader.readOptionalString()
      case "bundleVersion": value.bundleVersion = try reader.readOptionalString()
      case "environment": value.environment = try reader.readOptional(AppStoreEnvironment.self)
      case "signedTransactionInfo": value.signedTransactionInfo = try reader.readOptionalString()
      case "signedRenewalInfo": value.signedRenewalInfo = try reader.readOptionalString()
      case "status": value.status = try reader.readOptional(SubscriptionStatus.self)
      case "consumptionRequestReason":
        value.consumptionRequestReason = try reader.readOptional(ConsumptionRequestReason.self)
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
    writer.member("appAppleId", appAppleId)
    writer.member("bundleId", bundleId)
    writer.member("bundleVersion", bundleVersion)
    writer.member("environment", environment)
    writer.member("signedTransactionInfo", signedTransactionInfo)
    writer.member("signedRenewalInfo", signedRenewalInfo)
    writer.member("status", status)
    writer.member("consumptionRequestReason", consumptionRequestReason)
    writer.endObject()
  }

  // MARK: - Verified contents

  /// ``signedTransactionInfo``, verified and decoded; set by
  /// ``SignedDataVerifier/verifyNotification(_:)``, `nil` after plain decoding.
  public var transaction: Verified<JWSTransaction>?

  /// ``signedRenewalInfo``, verified and decoded; set by
  /// ``SignedDataVerifier/verifyNotification(_:)``, `nil` after plain decoding.
  public var renewalInfo: Verified<JWSRenewalInfo>?
}
