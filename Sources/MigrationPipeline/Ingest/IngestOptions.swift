import Chronology
import LegacyReceipts

/// What `ingest` reads and how.
public struct IngestOptions: Sendable {
  /// Files and directories to read.
  public var paths: [String]
  /// Reading limits and format choice.
  public var reader: LegacyInputReader.Options
  /// The team's product catalogue, if given.
  public var catalog: ProductCatalog?
  /// An instant at which to evaluate the old logic as well as at each record's capture instant.
  public var asOf: Timestamp?
  /// Records buffered before a write transaction commits.
  public var batchRecords: Int
  /// Bytes buffered before a write transaction commits, so memory stays flat with huge records.
  public var batchBytes: Int
  /// Whether stored responses keep their `latest_receipt` (`ingest --keep-latest-receipt`);
  /// by default it is removed (see `LatestReceiptRemoval`).
  public var keepsLatestReceipt: Bool

  /// Creates options.
  ///
  /// - Parameters:
  ///   - paths: files and directories to read.
  ///   - reader: reading limits and format choice.
  ///   - catalog: the product catalogue.
  ///   - asOf: an extra evaluation instant.
  ///   - batchRecords: records per transaction.
  ///   - batchBytes: bytes per transaction.
  ///   - keepsLatestReceipt: whether stored responses keep their `latest_receipt`.
  public init(
    paths: [String], reader: LegacyInputReader.Options = .init(), catalog: ProductCatalog? = nil,
    asOf: Timestamp? = nil, batchRecords: Int = 512, batchBytes: Int = 8 << 20,
    keepsLatestReceipt: Bool = false
  ) {
    self.keepsLatestReceipt = keepsLatestReceipt
    self.paths = paths
    self.reader = reader
    self.catalog = catalog
    self.asOf = asOf
    self.batchRecords = batchRecords
    self.batchBytes = batchBytes
  }
}
