import Chronology

/// What ingest takes from a raw receipt: the ids to backfill from, and what to check and report
/// about where they came from.
public struct RawReceiptSeeds: Hashable, Sendable {
  /// The receipt's format.
  public var format: RawReceiptFormat
  /// The distinct original transaction ids, in receipt order: the seeds for the Server API.
  /// Empty for an app receipt without in-app purchases.
  public var originalTransactionIds: [String]
  /// The distinct transaction ids, in receipt order.
  public var transactionIds: [String]
  /// The app's bundle identifier, if the receipt names it.
  public var bundleId: String?
  /// When an app receipt was created; `nil` for iOS 6 transaction receipts, which have no such
  /// date.
  public var creationDate: Timestamp?
  /// The environment the receipt names (an app receipt's type, an iOS 6 receipt's
  /// `environment`), if it names one.
  public var environment: ReceiptEnvironment?
  /// Whether the signature was checked, and the verdict.
  public var signature: RawReceiptSignature

  /// Creates seeds.
  ///
  /// - Parameters:
  ///   - format: The receipt's format.
  ///   - originalTransactionIds: The distinct original transaction ids, in order.
  ///   - transactionIds: The distinct transaction ids, in order.
  ///   - bundleId: The bundle identifier.
  ///   - creationDate: When the receipt was created.
  ///   - environment: The environment the receipt names.
  ///   - signature: The verdict on the signature.
  public init(
    format: RawReceiptFormat, originalTransactionIds: [String], transactionIds: [String],
    bundleId: String?, creationDate: Timestamp?, environment: ReceiptEnvironment?,
    signature: RawReceiptSignature
  ) {
    self.format = format
    self.originalTransactionIds = originalTransactionIds
    self.transactionIds = transactionIds
    self.bundleId = bundleId
    self.creationDate = creationDate
    self.environment = environment
    self.signature = signature
  }
}
