import Chronology
import CryptoSupport
import JSON

/// What a notification that failed verification says about itself, read from its JWS without
/// trusting a byte of it: its id, type and date, and the ids of the purchase and customer it
/// names (inside its signed transaction and renewal information, read the same way).
///
/// Nothing here may classify an account. A caller may use the ids only to ask the App Store
/// again — a verified answer then says what holds.
public struct UnverifiedNotification: Sendable, Hashable {
  /// `notificationUUID`.
  public var notificationUUID: String?
  /// `notificationType`.
  public var notificationType: String?
  /// `subtype`.
  public var subtype: String?
  /// `signedDate`.
  public var signedDate: Timestamp?
  /// The environment the payload names.
  public var environment: String?
  /// `originalTransactionId` of the transaction or renewal information it carries.
  public var originalTransactionId: String?
  /// `transactionId` of the transaction it carries.
  public var transactionId: String?
  /// `appTransactionId` of the transaction or renewal information it carries.
  public var appTransactionId: String?
  /// `appAccountToken` of the transaction it carries.
  public var appAccountToken: String?

  /// Creates a description; every member defaults to absent.
  public init(
    notificationUUID: String? = nil, notificationType: String? = nil, subtype: String? = nil,
    signedDate: Timestamp? = nil, environment: String? = nil,
    originalTransactionId: String? = nil, transactionId: String? = nil,
    appTransactionId: String? = nil, appAccountToken: String? = nil
  ) {
    self.notificationUUID = notificationUUID
    self.notificationType = notificationType
    self.subtype = subtype
    self.signedDate = signedDate
    self.environment = environment
    self.originalTransactionId = originalTransactionId
    self.transactionId = transactionId
    self.appTransactionId = appTransactionId
    self.appAccountToken = appAccountToken
  }

  /// Reads a notification's `signedPayload` without verifying it.
  ///
  /// - Parameter jws: the compact JWS.
  /// - Returns: what it says, or `nil` when its payload is not a base64url JSON object.
  public static func read(_ jws: String) -> UnverifiedNotification? {
    guard let payload = payload(of: jws) else { return nil }
    var found = UnverifiedNotification(
      notificationUUID: payload["notificationUUID"]?.stringValue,
      notificationType: payload["notificationType"]?.stringValue,
      subtype: payload["subtype"]?.stringValue,
      signedDate: payload["signedDate"]?.int64Value.map(Timestamp.init(millisecondsSince1970:)))
    let data = payload["data"]
    found.environment = data?["environment"]?.stringValue
    let transaction = data?["signedTransactionInfo"]?.stringValue.flatMap(Self.payload(of:))
    let renewal = data?["signedRenewalInfo"]?.stringValue.flatMap(Self.payload(of:))
    found.transactionId = transaction?["transactionId"]?.stringValue
    found.originalTransactionId =
      transaction?["originalTransactionId"]?.stringValue
      ?? renewal?["originalTransactionId"]?.stringValue
    found.appTransactionId =
      transaction?["appTransactionId"]?.stringValue ?? renewal?["appTransactionId"]?.stringValue
    found.appAccountToken = transaction?["appAccountToken"]?.stringValue
    return found
  }

  /// The ids it names, for finding the customer: the transaction's, then the original one.
  public var transactionIds: [String] {
    [originalTransactionId, transactionId].compactMap { $0 }
  }

  /// `DID_RENEW/BILLING_RECOVERY`, or `notification` when it names no type.
  public var kind: String {
    [notificationType, subtype].compactMap { $0 }.joined(separator: "/").nonEmpty
      ?? "notification"
  }

  /// The JSON object in the middle part of a compact JWS, or `nil`.
  private static func payload(of jws: String) -> JSONValue? {
    let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let bytes = try? Base64URL.decode(parts[1]),
      let value = try? JSONValue(parsing: bytes), case .object = value
    else { return nil }
    return value
  }
}

extension String {
  fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
