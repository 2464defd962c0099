import Chronology
import JSON

/// The decoded payload of a signed transaction (`signedTransactionInfo`, `signedTransactions[]`).
///
/// Every member is optional because Apple leaves out what does not apply; enumerated members keep
/// their raw values (see ``OpenEnumeration``).
public struct JWSTransaction: SignedPayload, Hashable {
  /// The id of this transaction.
  public var transactionId: String?

  /// The id of the original purchase; the same for every renewal and restore.
  public var originalTransactionId: String?

  /// The id of this subscription period's purchase event, unique across devices.
  public var webOrderLineItemId: String?

  /// The app's bundle id.
  public var bundleId: String?

  /// The product's id.
  public var productId: String?

  /// The subscription group the product belongs to.
  public var subscriptionGroupIdentifier: String?

  /// When the App Store charged the customer (for renewals, the renewal).
  public var purchaseDate: Timestamp?

  /// When the original transaction was bought.
  public var originalPurchaseDate: Timestamp?

  /// When the subscription period expires or renews.
  public var expiresDate: Timestamp?

  /// How many of a consumable were bought.
  public var quantity: Int?

  /// The product type.
  public var type: TransactionType?

  /// The UUID the app associated with the customer's account.
  public var appAccountToken: String?

  /// Whether it was bought or is shared through Family Sharing.
  public var inAppOwnershipType: InAppOwnershipType?

  /// When the App Store signed this payload; the instant the chain is validated at.
  public var signedDate: Timestamp?

  /// Why the transaction was refunded or revoked.
  public var revocationReason: RevocationReason?

  /// When the transaction was refunded or revoked.
  public var revocationDate: Timestamp?

  /// How the transaction was revoked.
  public var revocationType: RevocationType?

  /// The refunded share in thousandths of a percent (50000 is 50 %).
  public var revocationPercentage: Int?

  /// Whether the customer upgraded to another subscription of the group.
  public var isUpgraded: Bool?

  /// The kind of offer applied.
  public var offerType: OfferType?

  /// The id of the promotional offer or offer code.
  public var offerIdentifier: String?

  /// How the offer is paid.
  public var offerDiscountType: OfferDiscountType?

  /// The offer's duration as an ISO 8601 duration, such as `P1M`.
  public var offerPeriod: String?

  /// The environment that signed the payload.
  public var environment: AppStoreEnvironment?

  /// The storefront's three-letter country code.
  public var storefront: String?

  /// The storefront's Apple id.
  public var storefrontId: String?

  /// Whether this is a purchase or a renewal.
  public var transactionReason: TransactionReason?

  /// The ISO 4217 currency code of `price`.
  public var currency: String?

  /// The price in thousandths of the currency unit.
  public var price: Int64?

  /// The customer's app transaction id (one per Apple Account and app).
  public var appTransactionId: String?

  /// How a subscription with a commitment is billed.
  public var billingPlanType: BillingPlanType?

  /// The commitment plan this transaction belongs to, if any.
  public var commitmentInfo: TransactionCommitmentInfo?

  /// A payload with the given members; every member defaults to absent.
  ///
  /// - Parameters:
  ///   - transactionId: The id of this transaction.
  ///   - originalTransactionId: The id of the original purchase; the same for every renewal and restore.
  ///   - webOrderLineItemId: The id of this subscription period's purchase event, unique across devices.
  ///   - bundleId: The app's bundle id.
  ///   - productId: The product's id.
  ///   - subscriptionGroupIdentifier: The subscription group the product belongs to.
  ///   - purchaseDate: When the App Store charged the customer (for renewals, the renewal).
  ///   - originalPurchaseDate: When the original transaction was bought.
  ///   - expiresDate: When the subscription period expires or renews.
  ///   - quantity: How many of a consumable were bought.
  ///   - type: The product type.
  ///   - appAccountToken: The UUID the app associated with the customer's account.
  ///   - inAppOwnershipType: Whether it was bought or is shared through Family Sharing.
  ///   - signedDate: When the App Store signed this payload; the instant the chain is validated at.
  ///   - revocationReason: Why the transaction was refunded or revoked.
  ///   - revocationDate: When the transaction was refunded or revoked.
  ///   - revocationType: How the transaction was revoked.
  ///   - revocationPercentage: The refunded share in thousandths of a percent (50000 is 50 %).
  ///   - isUpgraded: Whether the customer upgraded to another subscription of the group.
  ///   - offerType: The kind of offer applied.
  ///   - offerIdentifier: The id of the promotional offer or offer code.
  ///   - offerDiscountType: How the offer is paid.
  ///   - offerPeriod: The offer's duration as an ISO 8601 duration, such as `P1M`.
  ///   - environment: The environment that signed the payload.
  ///   - storefront: The storefront's three-letter country code.
  ///   - storefrontId: The storefront's Apple id.
  ///   - transactionReason: Whether this is a purchase or a renewal.
  ///   - currency: The ISO 4217 currency code of `price`.
  ///   - price: The price in thousandths of the currency unit.
  ///   - appTransactionId: The customer's app transaction id (one per Apple Account and app).
  ///   - billingPlanType: How a subscription with a commitment is billed.
  ///   - commitmentInfo: The commitment plan this transaction belongs to, if any.
  public init(
    transactionId: String? = nil,
    originalTransactionId: String? = nil,
    webOrderLineItemId: String? = nil,
    bundleId: String? = nil,
    productId: String? = nil,
    subscriptionGroupIdentifier: String? = nil,
    purchaseDate: Timestamp? = nil,
    originalPurchaseDate: Timestamp? = nil,
    expiresDate: Timestamp? = nil,
    quantity: Int? = nil,
    type: TransactionType? = nil,
    appAccountToken: String? = nil,
    inAppOwnershipType: InAppOwnershipType? = nil,
    signedDate: Timestamp? = nil,
    revocationReason: RevocationReason? = nil,
    revocationDate: Timestamp? = nil,
    revocationType: RevocationType? = nil,
    revocationPercentage: Int? = nil,
    isUpgraded: Bool? = nil,
    offerType: OfferType? = nil,
    offerIdentifier: String? = nil,
    offerDiscountType: OfferDiscountType? = nil,
    offerPeriod: String? = nil,
    environment: AppStoreEnvironment? = nil,
    storefront: String? = nil,
    storefrontId: String? = nil,
    transactionReason: TransactionReason? = nil,
    currency: String? = nil,
    price: Int64? = nil,
    appTransactionId: String? = nil,
    billingPlanType: BillingPlanType? = nil,
    commitmentInfo: TransactionCommitmentInfo? = nil
  ) {
    self.transactionId = transactionId
    self.originalTransactionId = originalTransactionId
    self.webOrderLineItemId = webOrderLineItemId
    self.bundleId = bundleId
    self.productId = productId
    self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
    self.purchaseDate = purchaseDate
    self.originalPurchaseDate = originalPurchaseDate
    self.expiresDate = expiresDate
    self.quantity = quantity
    self.type = type
    self.appAccountToken = appAccountToken
    self.inAppOwnershipType = inAppOwnershipType
    self.signedDate = signedDate
    self.revocationReason = revocationReason
    self.revocationDate = revocationDate
    self.revocationType = revocationType
    self.revocationPercentage = revocationPercentage
    self.isUpgraded = isUpgraded
    self.offerType = offerType
    self.offerIdentifier = offerIdentifier
    self.offerDiscountType = offerDiscountType
    self.offerPeriod = offerPeriod
    self.environment = environment
    self.storefront = storefront
    self.storefrontId = storefrontId
    self.transactionReason = transactionReason
    self.currency = currency
    self.price = price
    self.appTransactionId = appTransactionId
    self.billingPlanType = billingPlanType
    self.commitmentInfo = commitmentInfo
  }

  // MARK: - JSON

  /// Reads the payload object; unknown members are skipped.
  ///
  /// - Parameter reader: A reader positioned before the object.
  /// - Returns: The payload.
  /// - Throws: `JSONError` when the object is malformed or a member has the wrong type.
  public static func read(from reader: inout JSONReader) throws(JSONError) -> JWSTransaction {
    var value = JWSTransaction()
    try reader.beginObject()
    while let key = try reader.nextKey() {
      switch key {
      case "transactionId": value.transactionId = try reader.readOptionalString()
      case "originalTransactionId": value.originalTransactionId = try reader.readOptionalString()
      case "webOrderLineItemId": value.webOrderLineItemId = try reader.readOptionalString()
      case "bundleId": value.bundleId = try reader.readOptionalString()
      case "productId": value.productId = try reader.readOptionalString()
      case "subscriptionGroupIdentifier":
        value.subscriptionGroupIdentifier = try reader.readOptionalString()
      case "purchaseDate": value.purchaseDate = try reader.readOptionalTimestamp()
      case "originalPurchaseDate": value.originalPurchaseDate = try reader.readOptionalTimestamp()
      case "expiresDate": value.expiresDate = try reader.readOptionalTimestamp()
      case "quantity": value.quantity = try reader.readOptionalInt()
      case "type": value.type = try reader.readOptional(TransactionType.self)
      case "appAccountToken": value.appAccountToken = try reader.readOptionalString()
      case "inAppOwnershipType":
        value.inAppOwnershipType = try reader.readOptional(InAppOwnershipType.self)
      case "signedDate": value.signedDate = try reader.readOptionalTimestamp()
      case "revocationReason":
        value.revocationReason = try reader.readOptional(RevocationReason.self)
      case "revocationDate": value.revocationDate = try reader.readOptionalTimestamp()
      case "revocationType": value.revocationType = try reader.readOptional(RevocationType.self)
      case "revocationPercentage": value.revocationPercentage = try reader.readOptionalInt()
      case "isUpgraded": value.isUpgraded = try reader.readOptionalBool()
      case "offerType": value.offerType = try reader.readOptional(OfferType.self)
      case "offerIdentifier": value.offerIdentifier = try reader.readOptionalString()
      case "offerDiscountType":
        value.offerDiscountType = try reader.readOptional(OfferDiscountType.self)
      case "offerPeriod": value.offerPeriod = try reader.readOptionalString()
      case "environment": value.environment = try reader.readOptional(AppStoreEnvironment.self)
      case "storefront": value.storefront = try reader.readOptionalString()
      case "storefrontId": value.storefrontId = try reader.readOptionalString()
      case "transactionReason":
        value.transactionReason = try reader.readOptional(TransactionReason.self)
      case "currency": value.currency = try reader.readOptionalString()
      case "price": value.price = try reader.readOptionalInt64()
      case "appTransactionId": value.appTransactionId = try reader.readOptionalString()
      case "billingPlanType": value.billingPlanType = try reader.readOptional(BillingPlanType.self)
      case "commitmentInfo":
        value.commitmentInfo =
          try reader.readNullIfPresent() ? nil : TransactionCommitmentInfo.read(from: &reader)
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
    writer.member("transactionId", transactionId)
    writer.member("originalTransactionId", originalTransactionId)
    writer.member("webOrderLineItemId", webOrderLineItemId)
    writer.member("bundleId", bundleId)
    writer.member("productId", productId)
    writer.member("subscriptionGroupIdentifier", subscriptionGroupIdentifier)
    writer.member("purchaseDate", purchaseDate)
    writer.member("originalPurchaseDate", originalPurchaseDate)
    writer.member("expiresDate", expiresDate)
    writer.member("quantity", quantity)
    writer.member("type", type)
    writer.member("appAccountToken", appAccountToken)
    writer.member("inAppOwnershipType", inAppOwnershipType)
    writer.member("signedDate", signedDate)
    writer.member("revocationReason", revocationReason)
    writer.member("revocationDate", revocationDate)
    writer.member("revocationType", revocationType)
    writer.member("revocationPercentage", revocationPercentage)
    writer.member("isUpgraded", isUpgraded)
    writer.member("offerType", offerType)
    writer.member("offerIdentifier", offerIdentifier)
    writer.member("offerDiscountType", offerDiscountType)
    writer.member("offerPeriod", offerPeriod)
    writer.member("environment", environment)
    writer.member("storefront", storefront)
    writer.member("storefrontId", storefrontId)
    writer.member("transactionReason", transactionReason)
    writer.member("currency", currency)
    writer.member("price", price)
    writer.member("appTransactionId", appTransactionId)
    writer.member("billingPlanType", billingPlanType)
    writer.member("commitmentInfo", commitmentInfo)
    writer.endObject()
  }
}
