/// A customer (Apple Account) as stored, with the progress of its backfill.
public struct CustomerRow: Hashable, Sendable {
  /// The row id.
  public var id: Int64
  /// The customer's key: its `appTransactionId`, else `original:<smallest original id>`.
  public var key: String
  /// Its `appTransactionId`, when its transactions carry one.
  public var appTransactionId: String?
  /// The environment that knows it.
  public var environment: String
  /// The id the history walk was started with; a resumed walk goes on with it.
  public var walkTransactionId: String
  /// The revision of the last stored history page.
  public var historyRevision: String?
  /// How many history pages are stored.
  public var historyPages: Int
  /// Whether the history walk reached `hasMore: false`.
  public var isHistoryComplete: Bool
  /// Whether the statuses are stored.
  public var areStatusesComplete: Bool
  /// Whether the app transaction was fetched (only when asked for).
  public var isAppTransactionComplete: Bool

  /// The version of the compact form every stored transaction of the customer has a copy in,
  /// or `nil` when some may lack one (see ``TransactionRow/compact``).
  public var compactTransactionsFormat: Int?

  /// The App Store's clock when the customer's statuses were last fetched (Unix ms), when
  /// recorded (schema version 4 on): the instant its data is true as of.
  public var statusesFetchedMilliseconds: Int64?

  /// Creates a row.
  public init(
    id: Int64, key: String, appTransactionId: String?, environment: String,
    walkTransactionId: String,
    historyRevision: String?, historyPages: Int, isHistoryComplete: Bool, areStatusesComplete: Bool,
    isAppTransactionComplete: Bool, compactTransactionsFormat: Int? = nil,
    statusesFetchedMilliseconds: Int64? = nil
  ) {
    self.id = id
    self.key = key
    self.appTransactionId = appTransactionId
    self.environment = environment
    self.walkTransactionId = walkTransactionId
    self.historyRevision = historyRevision
    self.historyPages = historyPages
    self.isHistoryComplete = isHistoryComplete
    self.areStatusesComplete = areStatusesComplete
    self.isAppTransactionComplete = isAppTransactionComplete
    self.compactTransactionsFormat = compactTransactionsFormat
    self.statusesFetchedMilliseconds = statusesFetchedMilliseconds
  }
}
