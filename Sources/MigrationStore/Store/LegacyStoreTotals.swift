/// What the store holds on the legacy side, across every ingest run so far.
public struct LegacyStoreTotals: Hashable, Sendable {
  /// Distinct accounts.
  public var accounts: Int
  /// Stored legacy records (all versions).
  public var records: Int
  /// Of those, records accepted as partial: some fields set aside.
  public var partialRecords: Int = 0
  /// Set-aside fields by reason.
  public var setAsideByReason: [String: Int] = [:]
  /// Distinct original transaction ids across all accounts.
  public var distinctOriginalTransactionIds: Int
  /// Accounts without any seed id.
  public var accountsWithoutIds: Int
  /// Raw receipt records that yielded no id (a receipt without any purchase).
  public var rawReceiptsPending: Int
  /// Records by environment (`"unknown"` when none is named).
  public var recordsByEnvironment: [String: Int]
  /// Response records by verifyReceipt status code.
  public var responsesByStatus: [Int64: Int]
  /// Quarantined inputs by reason.
  public var quarantinedByReason: [String: Int]
  /// Old-logic verdicts at capture by status label, for each account's latest usable response.
  public var oldEntitlementsByStatus: [String: Int]

  /// Creates totals.
  public init(
    accounts: Int = 0, records: Int = 0, distinctOriginalTransactionIds: Int = 0,
    accountsWithoutIds: Int = 0, rawReceiptsPending: Int = 0,
    recordsByEnvironment: [String: Int] = [:], responsesByStatus: [Int64: Int] = [:],
    quarantinedByReason: [String: Int] = [:], oldEntitlementsByStatus: [String: Int] = [:]
  ) {
    self.accounts = accounts
    self.records = records
    self.distinctOriginalTransactionIds = distinctOriginalTransactionIds
    self.accountsWithoutIds = accountsWithoutIds
    self.rawReceiptsPending = rawReceiptsPending
    self.recordsByEnvironment = recordsByEnvironment
    self.responsesByStatus = responsesByStatus
    self.quarantinedByReason = quarantinedByReason
    self.oldEntitlementsByStatus = oldEntitlementsByStatus
  }
}
