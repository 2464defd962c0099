import Chronology

/// The decoded app receipt (`receipt`) of a modern verifyReceipt response, or the receipt-level
/// fields of an iOS 6 style one (`bid`, `bvrs`, `item_id`).
public struct AppReceipt: Hashable, Sendable {
  /// `receipt_type`: `Production`, `ProductionSandbox`, `ProductionVPP`, `ProductionVPPSandbox`.
  public var receiptType: String?
  /// `bundle_id` (iOS 6: `bid`).
  public var bundleId: String?
  /// `application_version` (iOS 6: `bvrs`).
  public var applicationVersion: String?
  /// `original_application_version`
  public var originalApplicationVersion: String?
  /// `adam_id` (iOS 6: `item_id`): the app's Apple id.
  public var adamId: Int64?
  /// `app_item_id`
  public var appItemId: Int64?
  /// `download_id`: can exceed 2^53, so it is read as an exact 64-bit integer.
  public var downloadId: Int64?
  /// `version_external_identifier`
  public var versionExternalIdentifier: Int64?
  /// `receipt_creation_date_ms`
  public var receiptCreationDate: Timestamp?
  /// `request_date_ms`: when Apple answered — the instant the stored response describes.
  public var requestDate: Timestamp?
  /// `original_purchase_date_ms`: when the app was first bought.
  public var originalPurchaseDate: Timestamp?
  /// `expiration_date_ms` (volume purchase receipts).
  public var expirationDate: Timestamp?
  /// `preorder_date_ms`
  public var preorderDate: Timestamp?
  /// `in_app`: stale, unordered, possibly empty.
  public var inApp: [LegacyTransaction]

  /// Creates an empty receipt.
  public init() {
    self.inApp = []
  }
}
