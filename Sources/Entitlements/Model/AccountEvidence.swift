import Chronology

/// What a comparison rests on, besides the entitlements: the legacy records, the ids and what
/// became of them, and the App Store customers they led to.
public struct AccountEvidence: Hashable, Sendable {
  /// One stored legacy record.
  public struct LegacyRecord: Hashable, Sendable {
    /// The account's version number of the record.
    public var version: Int
    /// `response`, `raw_receipt` or `seed`.
    public var kind: String
    /// Where it was read: `receipts.ndjson:12`.
    public var source: String
    /// The verifyReceipt status, for responses.
    public var status: Int64?
    /// The environment the record names.
    public var environment: String?
    /// When it was captured.
    public var capturedAt: Timestamp?
    /// Whether it is the response the old side was evaluated on.
    public var isEvaluated: Bool
    /// Whether it is a response captured after the comparison instant, which the old side
    /// does not read (the team did not hold it then).
    public var isSetAside: Bool

    /// Creates a record summary.
    public init(
      version: Int, kind: String, source: String, status: Int64?, environment: String?,
      capturedAt: Timestamp?,
      isEvaluated: Bool, isSetAside: Bool = false
    ) {
      self.version = version
      self.kind = kind
      self.source = source
      self.status = status
      self.environment = environment
      self.capturedAt = capturedAt
      self.isEvaluated = isEvaluated
      self.isSetAside = isSetAside
    }
  }

  /// One seed id and what the backfill made of it.
  public struct SeedId: Hashable, Sendable {
    /// What became of an id.
    public enum Outcome: String, Hashable, Sendable {
      /// The App Store knows it: it led to a customer, by its own request or because another
      /// id's walk already held it. (The store records which; evidence does not, because with
      /// concurrent requests which id is asked first is a matter of timing, and the same data
      /// must give the same report.)
      case found
      /// Unknown in both environments (`4040010` twice).
      case unknown
      /// Malformed (`4000006`).
      case invalid
      /// Retries were exhausted, or the answer failed verification.
      case failed
      /// Not backfilled yet.
      case pending
    }

    /// The original transaction id.
    public var id: String
    /// Where it was found: `latest_receipt_info`, `in_app`, `csv`, ...
    public var source: String
    /// What became of it.
    public var outcome: Outcome
    /// The environment that answered.
    public var environment: String?
    /// The last error, for failed ids.
    public var lastError: String?
    /// Whether it came from a raw receipt whose signature was not verified.
    public var isUnverified: Bool

    /// Creates a seed summary.
    public init(
      id: String, source: String, outcome: Outcome, environment: String?, lastError: String?,
      isUnverified: Bool = false
    ) {
      self.id = id
      self.source = source
      self.outcome = outcome
      self.environment = environment
      self.lastError = lastError
      self.isUnverified = isUnverified
    }
  }

  /// One App Store customer (Apple Account) the ids led to.
  public struct Customer: Hashable, Sendable {
    /// The customer's key: its `appTransactionId` when known.
    public var key: String
    /// The environment that knows it.
    public var environment: String
    /// Other accounts linked to the same customer.
    public var otherAccounts: [String]

    /// Creates a customer summary.
    public init(key: String, environment: String, otherAccounts: [String]) {
      self.key = key
      self.environment = environment
      self.otherAccounts = otherAccounts
    }
  }

  /// The capture instant of the response the old side was evaluated on (the latest one, for
  /// accounts with several Apple Accounts).
  public var capturedAt: Timestamp?
  /// The account's legacy records, oldest first.
  public var legacyRecords: [LegacyRecord]
  /// The account's seed ids.
  public var seedIds: [SeedId]
  /// The customers they led to.
  public var customers: [Customer]

  /// Creates evidence.
  public init(
    capturedAt: Timestamp?, legacyRecords: [LegacyRecord], seedIds: [SeedId], customers: [Customer]
  ) {
    self.capturedAt = capturedAt
    self.legacyRecords = legacyRecords
    self.seedIds = seedIds
    self.customers = customers
  }
}
