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
    /// The fields ingest set aside from it (a partial record); empty for a whole one.
    public var setAside: [SetAside]
    /// Whether it is a response captured after the comparison instant, which the old side
    /// does not read (the team did not hold it then).
    public var isCapturedAfterInstant: Bool

    /// Creates a record summary.
    public init(
      version: Int, kind: String, source: String, status: Int64?, environment: String?,
      capturedAt: Timestamp?,
      isEvaluated: Bool, setAside: [SetAside] = [], isCapturedAfterInstant: Bool = false
    ) {
      self.setAside = setAside
      self.version = version
      self.kind = kind
      self.source = source
      self.status = status
      self.environment = environment
      self.capturedAt = capturedAt
      self.isEvaluated = isEvaluated
      self.isCapturedAfterInstant = isCapturedAfterInstant
    }
  }

  /// One field of a legacy record that ingest could not use and set aside.
  public struct SetAside: Hashable, Sendable {
    /// Its JSON path in the record, or its CSV column.
    public var path: String
    /// The stable reason: `masked`, `malformed transaction id`, `wrong type`, ...
    public var reason: String
    /// The full sentence.
    public var detail: String
    /// A sanitised excerpt of the value.
    public var excerpt: String

    /// Creates a set-aside field.
    public init(path: String, reason: String, detail: String, excerpt: String) {
      self.path = path
      self.reason = reason
      self.detail = detail
      self.excerpt = excerpt
    }
  }

  /// An order id the account's records name, and what Look Up Order ID answered.
  public struct OrderId: Hashable, Sendable {
    /// What the look-up answered.
    public enum Outcome: String, Hashable, Sendable {
      /// Status 0: an order of this app; its transactions became seed ids.
      case valid
      /// Status 1: not an order of this app (or no in-app purchase of it).
      case invalid
      /// The look-up failed; the next backfill asks again.
      case failed
      /// Not looked up yet.
      case pending
    }

    /// The order id.
    public var orderId: String
    /// The answer.
    public var outcome: Outcome
    /// The order's transaction ids, for a valid order.
    public var transactionIds: [String]
    /// The last error, for a failed look-up.
    public var lastError: String?

    /// Creates an order id summary.
    public init(orderId: String, outcome: Outcome, transactionIds: [String], lastError: String?) {
      self.orderId = orderId
      self.outcome = outcome
      self.transactionIds = transactionIds
      self.lastError = lastError
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
    /// The `originalApplicationVersion` of its app transaction, when fetched.
    public var originalApplicationVersion: String?

    /// Creates a customer summary.
    public init(
      key: String, environment: String, otherAccounts: [String],
      originalApplicationVersion: String? = nil
    ) {
      self.key = key
      self.environment = environment
      self.otherAccounts = otherAccounts
      self.originalApplicationVersion = originalApplicationVersion
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
  /// The order ids the account's records name.
  public var orderIds: [OrderId] = []
  /// The `original_application_version` of the evaluated legacy receipts (the newest first),
  /// for a paid-to-free grant.
  public var legacyOriginalApplicationVersions: [String] = []

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
