import Chronology

/// One transaction of a verifyReceipt response (`in_app` or `latest_receipt_info` entry, or the
/// iOS 6 style `receipt`), with every documented field. Dates come from the `*_ms` fields when
/// present and from the date strings otherwise.
public struct LegacyTransaction: Hashable, Sendable {
  /// `transaction_id`
  public var transactionId: String?
  /// `original_transaction_id`
  public var originalTransactionId: String?
  /// `web_order_line_item_id`
  public var webOrderLineItemId: String?
  /// `product_id`
  public var productId: String?
  /// `subscription_group_identifier` (only ever present in `latest_receipt_info`).
  public var subscriptionGroupIdentifier: String?
  /// `quantity`
  public var quantity: Int64?
  /// `purchase_date_ms` (or the parsed `purchase_date`).
  public var purchaseDate: Timestamp?
  /// `original_purchase_date_ms` (or the parsed string).
  public var originalPurchaseDate: Timestamp?
  /// `expires_date_ms` (or the parsed string; in the iOS 6 style `expires_date` is in ms).
  public var expiresDate: Timestamp?
  /// `cancellation_date_ms` (or the parsed string): a refund, or a family-sharing revocation.
  public var cancellationDate: Timestamp?
  /// `cancellation_reason`: `1` an issue in the app, `0` another reason.
  public var cancellationReason: Int64?
  /// `is_trial_period`
  public var isTrialPeriod: Bool?
  /// `is_in_intro_offer_period`
  public var isInIntroOfferPeriod: Bool?
  /// `is_upgraded`: the customer upgraded away from this subscription.
  public var isUpgraded: Bool
  /// `in_app_ownership_type`
  public var ownershipType: OwnershipType?
  /// `offer_code_ref_name`
  public var offerCodeRefName: String?
  /// `promotional_offer_id`
  public var promotionalOfferId: String?
  /// `app_account_token`
  public var appAccountToken: String?
  /// Where in the response the transaction was read.
  public var origin: TransactionOrigin
  /// Whether a field the old logic reads (a date, the product, its group, the upgrade flag,
  /// the ownership) was set aside at ingest: the old logic then leaves the transaction out
  /// rather than guess without it. Its ids still count.
  public var isIncomplete: Bool

  /// Creates a transaction; every field but the origin defaults to absent.
  ///
  /// - Parameter origin: where in the response it came from.
  public init(origin: TransactionOrigin) {
    self.isUpgraded = false
    self.origin = origin
    self.isIncomplete = false
  }

  /// Whether the transaction has an expiry, which marks an auto-renewable subscription.
  public var isAutoRenewable: Bool { expiresDate != nil }
}
