/// Everything the store holds for one account, as the compare stage reads it.
public struct AccountRecords: Sendable {
  /// One legacy record.
  public struct Record: Sendable {
    /// The account's version of the record.
    public var version: Int
    /// `response`, `raw_receipt` or `seed`.
    public var kind: String
    /// `ndjson`, `json` or `csv`: how the record was read.
    public var format: String
    /// The source file.
    public var sourcePath: String
    /// The source line, if any.
    public var sourceLine: Int?
    /// The verifyReceipt status, for responses.
    public var status: Int64?
    /// The environment the record names.
    public var environment: String?
    /// The capture instant (Unix ms).
    public var capturedMilliseconds: Int64?
    /// The record's verbatim bytes, for usable responses (status 0 or 21006) without a
    /// compact copy of the format asked for.
    public var raw: [UInt8]?
    /// The compact copy of its decoded response, for usable responses that have one of the
    /// format asked for (then `raw` is `nil`).
    public var compact: [UInt8]?
    /// The fields set aside at ingest (empty for a record accepted whole).
    public var setAside: [SetAsideFieldRow] = []
  }

  /// An order id the account's records name, with what Look Up Order ID answered.
  public struct Order: Sendable {
    /// The order id.
    public var orderId: String
    /// The answer, once the backfill asked.
    public var outcome: OrderOutcomeRow?
  }

  /// One seed id with its outcome.
  public struct Seed: Sendable {
    /// The id.
    public var originalTransactionId: String
    /// Where it was first found.
    public var source: String
    /// The outcome, if the backfill reached it.
    public var outcome: SeedOutcomeRow?
  }

  /// One subscription's status as Apple signed it.
  public struct Status: Sendable {
    /// The subscription's original transaction id.
    public var originalTransactionId: String
    /// Its subscription group.
    public var subscriptionGroup: String
    /// The status code Apple sent (1–5, or another value).
    public var status: Int64
    /// The latest transaction's signed value.
    public var transaction: StoredSignedText
    /// The renewal information's signed value, when Apple sent one.
    public var renewal: StoredSignedText?
  }

  /// One customer with its signed data.
  public struct Customer: Sendable {
    /// The customer.
    public var row: CustomerRow
    /// Other accounts linked to the same customer.
    public var otherAccounts: [String]
    /// Every transaction's signed value, by transaction id (empty when `compactTransactions`
    /// stands in for them).
    public var transactions: [StoredSignedText]
    /// Every transaction's compact copy, by transaction id, when each has one of the version
    /// asked for; then `transactions` is empty.
    public var compactTransactions: [[UInt8]]? = nil
    /// Every subscription's status, by original transaction id.
    public var statuses: [Status]
    /// Tokens `link` set on its purchases since it was last fetched, by original transaction
    /// id.
    public var writtenTokens: [String: String] = [:]
    /// The `originalApplicationVersion` of its app transaction, when one was fetched
    /// (`--app-transactions`) and names one.
    public var originalApplicationVersion: String? = nil
  }

  /// The account.
  public var accountId: String
  /// Its records, oldest version first.
  public var records: [Record]
  /// Its seed ids.
  public var seeds: [Seed]
  /// Its customers.
  public var customers: [Customer]
  /// The order ids its records name.
  public var orders: [Order] = []
}
