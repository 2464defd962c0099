import Chronology

/// One `pending_renewal_info` entry: the renewal state of one auto-renewable subscription
/// (one original transaction). Any field can be missing in real data.
public struct LegacyRenewalInfo: Hashable, Sendable {
  /// `original_transaction_id`
  public var originalTransactionId: String?
  /// `product_id`
  public var productId: String?
  /// `auto_renew_product_id`
  public var autoRenewProductId: String?
  /// `auto_renew_status`: will renew (`"1"`) or turned off (`"0"`).
  public var autoRenewStatus: Bool?
  /// `expiration_intent`
  public var expirationIntent: ExpirationIntent?
  /// `is_in_billing_retry_period`
  public var isInBillingRetryPeriod: Bool?
  /// `grace_period_expires_date_ms` (or the parsed string).
  public var gracePeriodExpiresDate: Timestamp?
  /// `price_consent_status`
  public var priceConsentStatus: Int64?
  /// `offer_code_ref_name`
  public var offerCodeRefName: String?
  /// `promotional_offer_id`
  public var promotionalOfferId: String?
  /// Whether a field the old logic reads (auto-renew status, expiration intent, billing retry,
  /// grace period) was set aside at ingest: the old logic then does not read the renewal.
  public var isIncomplete = false

  /// Creates an empty renewal info.
  public init() {}
}
