import Chronology
import LegacyReceipts

/// Everything known about one account, gathered from the store for the comparison.
public struct AccountInput: Sendable {
  /// A usable legacy response and when it was captured.
  public struct Response: Sendable {
    /// The account's version number of the record.
    public var version: Int
    /// When it was captured (its `request_date`, else the record's `captured_at`).
    public var capturedAt: Timestamp?
    /// The decoded response.
    public var response: VerifyReceiptResponse

    /// Creates a response.
    public init(version: Int, capturedAt: Timestamp?, response: VerifyReceiptResponse) {
      self.version = version
      self.capturedAt = capturedAt
      self.response = response
    }
  }

  /// One App Store customer the account's ids led to.
  public struct Customer: Sendable {
    /// The customer's key (its `appTransactionId` when known).
    public var key: String
    /// The environment that knows it.
    public var environment: String
    /// Other accounts linked to the same customer.
    public var otherAccounts: [String]
    /// What the App Store said.
    public var data: AppStoreCustomerData
    /// Whether the whole history and the statuses are stored; an interrupted backfill leaves
    /// a customer incomplete, and an incomplete customer is never compared.
    public var isComplete: Bool
    /// Why the customer is due to be asked again, when a refresh is still pending (a
    /// notification named it, or the refresh's budget ran out): its stored data is known to be
    /// out of date, so it is not compared.
    public var pendingRefresh: String?
    /// The `originalApplicationVersion` of its app transaction, when one was fetched.
    public var originalApplicationVersion: String?
    /// The latest instant the customer's data is known to hold through: when it was fetched,
    /// or later when a change feed that was read to there and vouched for it named no change
    /// (the environment's watermark). `nil` when unknown (the statuses' signing then stands in).
    public var vouchedThrough: Timestamp?

    /// Creates a customer.
    public init(
      key: String, environment: String, otherAccounts: [String], data: AppStoreCustomerData,
      isComplete: Bool = true, pendingRefresh: String? = nil,
      originalApplicationVersion: String? = nil, vouchedThrough: Timestamp? = nil
    ) {
      self.originalApplicationVersion = originalApplicationVersion
      self.key = key
      self.environment = environment
      self.otherAccounts = otherAccounts
      self.data = data
      self.isComplete = isComplete
      self.pendingRefresh = pendingRefresh
      self.vouchedThrough = vouchedThrough
    }
  }

  /// The team's account id.
  public var accountId: String
  /// Usable responses (status 0 or 21006).
  public var responses: [Response]
  /// Every legacy record, for the evidence and the error check.
  public var records: [AccountEvidence.LegacyRecord]
  /// Every seed id and its backfill outcome.
  public var seeds: [AccountEvidence.SeedId]
  /// The customers the ids led to.
  public var customers: [Customer]
  /// The team's table rows, when a table is compared.
  public var table: [TableRow]?
  /// The order ids the account's records name, and what became of them.
  public var orders: [AccountEvidence.OrderId] = []

  /// Creates an input.
  public init(
    accountId: String, responses: [Response], records: [AccountEvidence.LegacyRecord],
    seeds: [AccountEvidence.SeedId],
    customers: [Customer], table: [TableRow]?
  ) {
    self.accountId = accountId
    self.responses = responses
    self.records = records
    self.seeds = seeds
    self.customers = customers
    self.table = table
  }
}
