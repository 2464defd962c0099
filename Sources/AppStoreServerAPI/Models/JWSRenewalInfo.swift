import Chronology
import JSON

/// The decoded payload of a subscription's signed renewal information (`signedRenewalInfo`).
public struct JWSRenewalInfo: SignedPayload, Hashable {
  /// The original transaction id of the subscription.
  public var originalTransactionId: String?

  /// The product the current period is for.
  public var productId: String?

  /// The product that renews next (differs after a downgrade or crossgrade).
  public var autoRenewProductId: String?

  /// Whether the subscription renews.
  public var autoRenewStatus: AutoRenewStatus?

  /// Why the subscription expired.
  public var expirationIntent: ExpirationIntent?

  /// Whether the App Store is still trying to bill the customer.
  public var isInBillingRetryPeriod: Bool?

  /// When the billing grace period ends.
  public var gracePeriodExpiresDate: Timestamp?

  /// The customer's response to a price increase.
  public var priceIncreaseStatus: PriceIncreaseStatus?

  /// The kind of offer that applies at the next renewal.
  public var offerType: OfferType?

  /// The id of that offer.
  public var offerIdentifier: String?

  /// How that offer is paid.
  public var offerDiscountType: OfferDiscountType?

  /// That offer's duration (ISO 8601).
  public var offerPeriod: String?

  /// When the subscription renews next.
  public var renewalDate: Timestamp?

  /// The price of the next renewal in thousandths of the currency unit.
  public var renewalPrice: Int64?

  /// The ISO 4217 currency code of `renewalPrice`.
  public var currency: String?

  /// The start of the most recent run of paid periods without a lapse over 60 days.
  public var recentSubscriptionStartDate: Timestamp?

  /// The win-back offers the customer can redeem.
  public var eligibleWinBackOfferIds: [String]?

  /// When the App Store signed this payload.
  public var signedDate: Timestamp?

  /// The environment that signed the payload.
  public var environment: AppStoreEnvironment?

  /// The UUID the app associated with the customer's account.
  public var appAccountToken: String?

  /// The customer's app transaction id.
  public var appTransactionId: String?

  /// How the next renewal is billed.
  public var renewalBillingPlanType: BillingPlanType?

  /// The commitment plan of the next renewal, if any.
  public var commitmentInfo: RenewalCommitmentInfo?

  /// A payload with the given members; every member defaults to absent.
  ///
  /// - Parameters:
  ///   - originalTransactionId: The original transaction id of the subscription.
  ///   - productId: The product the current period is for.
  ///   - autoRenewProductId: The product that renews next (differs after a downgrade or crossgrade).
  ///   - autoRenewStatus: Whether the subscription renews.
  ///   - expirationIntent: Why the subscription expired.
  ///   - isInBillingRetryPeriod: Whether the App Store is still trying to bill the customer.
  ///   - gracePeriodExpiresDate: When the billing grace period ends.
  ///   - priceIncreaseStatus: The customer's response to a price increase.
  ///   - offerType: The kind of offer that applies at the next renewal.
  ///   - offerIdentifier: The id of that offer.
  ///   - offerDiscountType: How that offer is paid.
  ///   - offerPeriod: That offer's duration (ISO 8601).
  ///   - renewalDate: When the subscription renews next.
  ///   - renewalPrice: The price of the next renewal in thousandths of the currency unit.
  ///   - currency: The ISO 4217 currency code of `renewalPrice`.
  ///   - recentSubscriptionStartDate: The start of the most recent run of paid periods without a lapse over 60 days.
  ///   - eligibleWinBackOfferIds: The win-back offers the customer can redeem.
  ///   - signedDate: When the App Store signed this payload.
  ///   - environment: The environment that signed the payload.
  ///   - appAccountToken: The UUID the app associated with the customer's account.
  ///   - appTransactionId: The customer's app transaction id.
  ///   - renewalBillingPlanType: How the next renewal is billed.
  ///   - commitmentInfo: The commitment plan of the next renewal, if any.
  public init(
    originalTransactionId: String? = nil,
    productId: String? = nil,
    autoRenewProductId: String? = nil,
    autoRenewStatus: AutoRenewStatus? = nil,
    expirationIntent: ExpirationIntent? = nil,
    isInBillingRetryPeriod: Bool? = nil,
    gracePeriodExpiresDate: Timestamp? = nil,
    priceIncreaseStatus: PriceIncreaseStatus? = nil,
    offerType: OfferType? = nil,
    offerIdentifier: String? = nil,
    offerDiscountType: OfferDiscountType? = nil,
    offerPeriod: String? = nil,
    renewalDate: Timestamp? = nil,
    renewalPrice: Int64? = nil,
    currency: String? = nil,
    recentSubscriptionStartDate: Timestamp? = nil,
    eligibleWinBackOfferIds: [String]? = nil,
    signedDate: Timestamp? = nil,
    environment: AppStoreEnvironment? = nil,
    appAccountToken: String? = nil,
    appTransactionId: String? = nil,
    renewalBillingPlanType: BillingPlanType? = nil,
    commitmentInfo: RenewalCommitmentInfo? = nil
  ) {
    self.originalTransactionId = originalTransactionId
    self.productId = productId
    self.autoRenewProductId = autoRenewProductId
    self.autoRenewStatus = autoRenewStatus
    self.expirationIntent = expirationIntent
    self.isInBillingRetryPeriod = isInBillingRetryPeriod
    self.gracePeriodExpiresDate = gracePeriodExpiresDate
    self.priceIncreaseStatus = priceIncreaseStatus
    self.offerType = offerType
    self.offerIdentifier = offerIdentifier
    self.offerDiscountType = offerDiscountType
    self.offerPeriod = offerPeriod
    self.renewalDate = renewalDate
    self.renewalPrice = renewalPrice
    self.currency = currency
    self.recentSubscriptionStartDate = recentSubscriptionStartDate
    self.eligibleWinBackOfferIds = eligibleWinBackOfferIds
    self.signedDate = signedDate
    self.environment = environment
    self.appAccountToken = appAccountToken
    self.appTransactionId = appTransactionId
    self.renewalBillingPlanType = renewalBillingPlanType
    self.commitmentInfo = commitmentInfo
  }

  // MARK: - JSON

  /// Reads the payload object; unknown members are skipped.
  ///
  /// - Parameter reader: A reader positioned before the object.
  /// - Returns: The payload.
  /// - Throws: `JSONError` when the object is malformed or a member has the wrong type.
  public static func read(from reader: inout JSONReader) throws(JSONError) -> JWSRenewalInfo {
    var value = JWSRenewalInfo()
    try reader.beginObject()
    while let key = try reader.nextKey() {
      switch key {
      case "originalTransactionId": value.originalTransactionId = try reader.readOptionalString()
      case "productId": value.productId = try reader.readOptionalString()
      case "autoRenewProductId": value.autoRenewProductId = try reader.readOptionalString()
      case "autoRenewStatus": value.autoRenewStatus = try reader.readOptional(AutoRenewStatus.self)
      case "expirationIntent":
        value.expirationIntent = try reader.readOptional(ExpirationIntent.self)
      case "isInBillingRetryPeriod": value.isInBillingRetryPeriod = try reader.readOptionalBool()
      case "gracePeriodExpiresDate":
        value.gracePeriodExpiresDate = try reader.readOptionalTimestamp()
      case "priceIncreaseStatus":
        value.priceIncreaseStatus = try reader.readOptional(PriceIncreaseStatus.self)
      case "offerType": value.offerType = try reader.readOptional(OfferType.self)
      case "offerIdentifier": value.offerIdentifier = try reader.readOptionalString()
      case "offerDiscountType":
        value.offerDiscountType = try reader.readOptional(OfferDiscountType.self)
      case "offerPeriod": value.offerPeriod = try reader.readOptionalString()
      case "renewalDate": value.renewalDate = try reader.readOptionalTimestamp()
      case "renewalPrice": value.renewalPrice = try reader.readOptionalInt64()
      case "currency": value.currency = try reader.readOptionalString()
      case "recentSubscriptionStartDate":
        value.recentSubscriptionStartDate = try reader.readOptionalTimestamp()
      case "eligibleWinBackOfferIds":
        value.eligibleWinBackOfferIds = try reader.readOptionalStrings()
      case "signedDate": value.signedDate = try reader.readOptionalTimestamp()
      case "environment": value.environment = try reader.readOptional(AppStoreEnvironment.self)
      case "appAccountToken": value.appAccountToken = try reader.readOptionalString()
      case "appTransactionId": value.appTransactionId = try reader.readOptionalString()
      case "renewalBillingPlanType":
        value.renewalBillingPlanType = try reader.readOptional(BillingPlanType.self)
      case "commitmentInfo":
        value.commitmentInfo =
          try reader.readNullIfPresent() ? nil : RenewalCommitmentInfo.read(from: &reader)
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
    writer.member("originalTransactionId", originalTransactionId)
    writer.member("productId", productId)
    writer.member("autoRenewProductId", autoRenewProductId)
    writer.member("autoRenewStatus", autoRenewStatus)
    writer.member("expirationIntent", expirationIntent)
    writer.member("isInBillingRetryPeriod", isInBillingRetryPeriod)
    writer.member("gracePeriodExpiresDate", gracePeriodExpiresDate)
    writer.member("priceIncreaseStatus", priceIncreaseStatus)
    writer.member("offerType", offerType)
    writer.member("offerIdentifier", offerIdentifier)
    writer.member("offerDiscountType", offerDiscountType)
    writer.member("offerPeriod", offerPeriod)
    writer.member("renewalDate", renewalDate)
    writer.member("renewalPrice", renewalPrice)
    writer.member("currency", currency)
    writer.member("recentSubscriptionStartDate", recentSubscriptionStartDate)
    writer.member("eligibleWinBackOfferIds", eligibleWinBackOfferIds)
    writer.member("signedDate", signedDate)
    writer.member("environment", environment)
    writer.member("appAccountToken", appAccountToken)
    writer.member("appTransactionId", appTransactionId)
    writer.member("renewalBillingPlanType", renewalBillingPlanType)
    writer.member("commitmentInfo", commitmentInfo)
    writer.endObject()
  }
}
