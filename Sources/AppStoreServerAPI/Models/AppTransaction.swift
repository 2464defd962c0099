import Chronology
import JSON

/// The decoded payload of a signed app transaction (`signedAppTransactionInfo`): the customer's
/// purchase of the app itself.
public struct AppTransaction: SignedPayload, Hashable {
  /// The environment the app transaction comes from (`receiptType`).
  public var receiptType: AppStoreEnvironment?

  /// The app's Apple id.
  public var appAppleId: Int64?

  /// The app's bundle id.
  public var bundleId: String?

  /// The app version the app transaction is for.
  public var applicationVersion: String?

  /// The App Store's id of that version.
  public var versionExternalIdentifier: Int64?

  /// When the App Store created the app transaction.
  public var receiptCreationDate: Timestamp?

  /// When the customer first bought or downloaded the app.
  public var originalPurchaseDate: Timestamp?

  /// The app version the customer first bought.
  public var originalApplicationVersion: String?

  /// A device verification value (base64).
  public var deviceVerification: String?

  /// The nonce used for `deviceVerification`.
  public var deviceVerificationNonce: String?

  /// When the customer pre-ordered the app.
  public var preorderDate: Timestamp?

  /// The customer's app transaction id, the cleanest customer key.
  public var appTransactionId: String?

  /// The platform of the original purchase.
  public var originalPlatform: PurchasePlatform?

  /// When the App Store signed this payload. Apple's app transactions carry none (they carry
  /// `receiptCreationDate`); it is kept for payloads that do.
  public var signedDate: Timestamp?

  /// `signedDate`, else `receiptCreationDate`: Apple's verifiers validate an app transaction's
  /// chain at its receipt creation date, since Apple signs no `signedDate` into it.
  public var validationDate: Timestamp? { signedDate ?? receiptCreationDate }

  /// A payload with the given members; every member defaults to absent.
  ///
  /// - Parameters:
  ///   - receiptType: The environment the app transaction comes from (`receiptType`).
  ///   - appAppleId: The app's Apple id.
  ///   - bundleId: The app's bundle id.
  ///   - applicationVersion: The app version the app transaction is for.
  ///   - versionExternalIdentifier: The App Store's id of that version.
  ///   - receiptCreationDate: When the App Store created the app transaction.
  ///   - originalPurchaseDate: When the customer first bought or downloaded the app.
  ///   - originalApplicationVersion: The app version the customer first bought.
  ///   - deviceVerification: A device verification value (base64).
  ///   - deviceVerificationNonce: The nonce used for `deviceVerification`.
  ///   - preorderDate: When the customer pre-ordered the app.
  ///   - appTransactionId: The customer's app transaction id, the cleanest customer key.
  ///   - originalPlatform: The platform of the original purchase.
  ///   - signedDate: When the App Store signed this payload.
  public init(
    receiptType: AppStoreEnvironment? = nil,
    appAppleId: Int64? = nil,
    bundleId: String? = nil,
    applicationVersion: String? = nil,
    versionExternalIdentifier: Int64? = nil,
    receiptCreationDate: Timestamp? = nil,
    originalPurchaseDate: Timestamp? = nil,
    originalApplicationVersion: String? = nil,
    deviceVerification: String? = nil,
    deviceVerificationNonce: String? = nil,
    preorderDate: Timestamp? = nil,
    appTransactionId: String? = nil,
    originalPlatform: PurchasePlatform? = nil,
    signedDate: Timestamp? = nil
  ) {
    self.receiptType = receiptType
    self.appAppleId = appAppleId
    self.bundleId = bundleId
    self.applicationVersion = applicationVersion
    self.versionExternalIdentifier = versionExternalIdentifier
    self.receiptCreationDate = receiptCreationDate
    self.originalPurchaseDate = originalPurchaseDate
    self.originalApplicationVersion = originalApplicationVersion
    self.deviceVerification = deviceVerification
    self.deviceVerificationNonce = deviceVerificationNonce
    self.preorderDate = preorderDate
    self.appTransactionId = appTransactionId
    self.originalPlatform = originalPlatform
    self.signedDate = signedDate
  }

  // MARK: - JSON

  /// Reads the payload object; unknown members are skipped.
  ///
  /// - Parameter reader: A reader positioned before the object.
  /// - Returns: The payload.
  /// - Throws: `JSONError` when the object is malformed or a member has the wrong type.
  public static func read(from reader: inout JSONReader) throws(JSONError) -> AppTransaction {
    var value = AppTransaction()
    try reader.beginObject()
    while let key = try reader.nextKey() {
      switch key {
      case "receiptType": value.receiptType = try reader.readOptional(AppStoreEnvironment.self)
      case "appAppleId": value.appAppleId = try reader.readOptionalInt64()
      case "bundleId": value.bundleId = try reader.readOptionalString()
      case "applicationVersion": value.applicationVersion = try reader.readOptionalString()
      case "versionExternalIdentifier":
        value.versionExternalIdentifier = try reader.readOptionalInt64()
      case "receiptCreationDate": value.receiptCreationDate = try reader.readOptionalTimestamp()
      case "originalPurchaseDate": value.originalPurchaseDate = try reader.readOptionalTimestamp()
      case "originalApplicationVersion":
        value.originalApplicationVersion = try reader.readOptionalString()
      case "deviceVerification": value.deviceVerification = try reader.readOptionalString()
      case "deviceVerificationNonce":
        value.deviceVerificationNonce = try reader.readOptionalString()
      case "preorderDate": value.preorderDate = try reader.readOptionalTimestamp()
      case "appTransactionId": value.appTransactionId = try reader.readOptionalString()
      case "originalPlatform":
        value.originalPlatform = try reader.readOptional(PurchasePlatform.self)
      case "signedDate": value.signedDate = try reader.readOptionalTimestamp()
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
    writer.member("receiptType", receiptType)
    writer.member("appAppleId", appAppleId)
    writer.member("bundleId", bundleId)
    writer.member("applicationVersion", applicationVersion)
    writer.member("versionExternalIdentifier", versionExternalIdentifier)
    writer.member("receiptCreationDate", receiptCreationDate)
    writer.member("originalPurchaseDate", originalPurchaseDate)
    writer.member("originalApplicationVersion", originalApplicationVersion)
    writer.member("deviceVerification", deviceVerification)
    writer.member("deviceVerificationNonce", deviceVerificationNonce)
    writer.member("preorderDate", preorderDate)
    writer.member("appTransactionId", appTransactionId)
    writer.member("originalPlatform", originalPlatform)
    writer.member("signedDate", signedDate)
    writer.endObject()
  }
}
