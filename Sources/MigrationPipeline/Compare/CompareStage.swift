import AppStoreServerAPI
import Chronology
import CompactEncoding
import Dispatch
import Entitlements
import LegacyReceipts
import MigrationStore
import Synchronization

/// The compare stage: classifies every account by reading what ingest and backfill stored —
/// no network. Accounts are read in chunks and compared in parallel; the result is in account
/// order and the same for the same store and options.
public struct CompareStage {
  /// The stage's name in progress reports.
  public static let name = "compare"

  /// The store it reads; a report orders the accounts through the same connection.
  let store: MigrationStore
  private let options: CompareOptions
  private let observer: (any ProgressObserver)?
  private let chunkSize: Int

  /// Creates the stage.
  ///
  /// - Parameters:
  ///   - store: the store to read.
  ///   - options: what to compare and how.
  ///   - observer: where progress goes.
  ///   - chunkSize: how many accounts ``run(each:)`` reads and compares at once.
  public init(
    store: MigrationStore, options: CompareOptions, observer: (any ProgressObserver)? = nil,
    chunkSize: Int = CompareStage.defaultChunkSize
  ) {
    self.store = store
    self.options = options
    self.observer = observer
    self.chunkSize = max(1, chunkSize)
  }

  /// Compares every account.
  ///
  /// - Returns: one comparison per account, by account id.
  /// - Throws: `SQLiteError`, or a failure to read back a stored value.
  public func run() throws -> [AccountComparison] {
    var results: [AccountComparison] = []
    try run { results.append(contentsOf: $0) }
    return results
  }

  /// Compares every account a chunk at a time, in account order, handing each chunk to `body`
  /// and keeping none: memory holds one chunk, however many accounts the store has.
  ///
  /// - Parameter body: receives each chunk's comparisons, by account id.
  /// - Returns: how many accounts were compared.
  /// - Throws: `SQLiteError`, a failure to read back a stored value, or what `body` throws.
  @discardableResult
  public func run(each body: ([AccountComparison]) throws -> Void) throws -> Int {
    observer?.stageStarted(Self.name, unit: "accounts", total: Int64(try store.accountCount()))
    let pending = try store.pendingRefreshes()
    // The ids are read a chunk at a time too: a million of them would be 60 MB held throughout.
    var last: String?
    func nextChunk() throws -> [String]? {
      let ids = try store.accountIds(after: last, limit: chunkSize)
      last = ids.last
      return ids.isEmpty ? nil : ids
    }
    var compared = 0
    try forEachChunk(next: nextChunk, pendingRefreshes: pending) { comparisons in
      try StopRequest.checkpoint()
      try body(comparisons)
      compared += comparisons.count
      observer?.advanced(Self.name, by: Int64(comparisons.count))
    }
    observer?.stageFinished(Self.name)
    return compared
  }

  /// Compares each chunk of accounts, in order, reading the next chunk from the store while
  /// `body` works on the current one (see ``CompareChunkReader``).
  ///
  /// - Parameters:
  ///   - next: the accounts of the next chunk, or `nil` after the last; called on this thread.
  ///   - pending: the store's pending refreshes, read once.
  ///   - body: receives each chunk's comparisons, in the chunk's order.
  /// - Throws: `SQLiteError`, a failure to read back a stored value, or what `next` or `body`
  ///   throws.
  func forEachChunk(
    next: () throws -> [String]?, pendingRefreshes pending: [Int64: String],
    _ body: ([AccountComparison]) throws -> Void
  ) throws {
    try CompareChunkReader(store: store, options: options).forEach(next: next) { inputs in
      try body(try compare(inputs, pendingRefreshes: pending))
    }
  }

  /// The store's pending refreshes, which every comparison reads.
  func pendingRefreshes() throws -> [Int64: String] { try store.pendingRefreshes() }

  /// Accounts read and compared at once, unless told otherwise.
  public static let defaultChunkSize = 512

  /// Compares these accounts, in this order.
  ///
  /// - Parameter accountIds: the accounts.
  /// - Returns: one comparison per id, in the order given.
  /// - Throws: `SQLiteError`, or a failure to read back a stored value.
  public func compare(accountIds: [String]) throws -> [AccountComparison] {
    try compare(accountIds: accountIds, pendingRefreshes: try store.pendingRefreshes())
  }

  /// Compares these accounts, in this order, with the refreshes pending already read.
  func compare(accountIds: [String], pendingRefreshes pending: [Int64: String]) throws
    -> [AccountComparison]
  {
    try compare(
      CompareChunkReader.read(accountIds, from: store, options: options),
      pendingRefreshes: pending)
  }

  /// Compares one chunk's inputs, in their order: decoding every stored value and comparing
  /// run in parallel.
  private func compare(_ inputs: CompareChunkInputs, pendingRefreshes pending: [Int64: String])
    throws -> [AccountComparison]
  {
    let comparator = self.comparator
    let watermarks = options.watermarks
    let records = inputs.records
    let table = inputs.table
    let auditor = options.tokens.map(TokenAuditor.init(mapping:))
    let compared = Mutex<[Result<AccountComparison, any Error>?]>(
      Array(repeating: nil, count: records.count))
    DispatchQueue.concurrentPerform(iterations: records.count) { index in
      let comparison = Result {
        let input = try Self.input(
          for: records[index], table: table?[index], pendingRefreshes: pending,
          watermarks: watermarks)
        var compared = comparator.compare(input)
        compared.tokenAudit = auditor?.audit(
          accountId: input.accountId, customers: Self.tokenCustomers(records[index], input))
        return compared
      }
      compared.withLock { $0[index] = comparison }
    }
    return try compared.withLock { $0 }.compactMap { try $0?.get() }
  }

  /// Compares one account.
  ///
  /// - Parameter accountId: the account.
  /// - Returns: its comparison.
  /// - Throws: `SQLiteError`, or a failure to read back a stored value.
  public func compare(accountId: String) throws -> AccountComparison {
    try compare(accountIds: [accountId])[0]
  }

  /// The account's customers as the token audit reads them: the decoded transactions, and the
  /// tokens `link` set since each customer was fetched.
  static func tokenCustomers(_ records: AccountRecords, _ input: AccountInput)
    -> [TokenAuditor.Customer]
  {
    zip(records.customers, input.customers).map { stored, customer in
      TokenAuditor.Customer(
        key: customer.key, environment: customer.environment,
        transactions: customer.data.transactions, writtenTokens: stored.writtenTokens)
    }
  }

  private var comparator: AccountComparator {
    AccountComparator(
      asOf: options.asOf, catalog: options.catalog, expiryTolerance: options.expiryTolerance,
      maxDataAgeMilliseconds: options.maxDataAgeMilliseconds)
  }

  // MARK: - From stored rows to comparison inputs

  /// A stored seed outcome as evidence: `covered` (another id's walk held it) is `found`.
  static func outcome(_ stored: String) -> AccountEvidence.SeedId.Outcome? {
    stored == "covered" ? .found : AccountEvidence.SeedId.Outcome(rawValue: stored)
  }

  /// The response a stored record holds, from its compact copy when it has one.
  static func storedResponse(of record: AccountRecords.Record) throws -> VerifyReceiptResponse? {
    if let compact = record.compact { return try CompactResponse.decode(compact) }
    guard let raw = record.raw, let format = LegacyInputFormat(rawValue: record.format) else {
      return nil
    }
    return try StoredRecordDecoder.response(of: raw, format: format)
  }

  /// A customer's transactions, from their compact copies when it has them.
  static func storedTransactions(of customer: AccountRecords.Customer) throws -> [JWSTransaction] {
    if let compact = customer.compactTransactions {
      do {
        return try compact.map { bytes throws(CompactDecodingError) in
          try CompactTransaction.decode(bytes)
        }
      } catch {
        // The copies are derived from the signed values, which stay intact: say which
        // customer's are damaged and how to have them built again.
        throw StoredSignedValue.Failure(
          description:
            "the compact copies of customer \(customer.row.key)'s transactions are damaged (\(error)); "
            + "they are made from its signed transactions, which are intact: clear them with "
            + "`UPDATE customers SET compact_transactions_format = NULL WHERE id = \(customer.row.id)` "
            + "and the next compare builds them again")
      }
    }
    return try customer.transactions.map {
      try StoredSignedValue.decode($0, as: JWSTransaction.self)
    }
  }

  /// One account's input to the comparator.
  ///
  /// - Parameters:
  ///   - records: what the store holds for the account.
  ///   - table: the account's rows of the team table, or `nil` when no table is compared.
  ///   - pendingRefreshes: the refreshes still due, by customer.
  ///   - watermarks: per environment, the instant its data is current through.
  static func input(
    for records: AccountRecords, table: [TableRow]?,
    pendingRefreshes: [Int64: String] = [:], watermarks: [String: Timestamp] = [:]
  ) throws -> AccountInput {
    var responses: [AccountInput.Response] = []
    var evidence: [AccountEvidence.LegacyRecord] = []
    for record in records.records {
      evidence.append(
        AccountEvidence.LegacyRecord(
          version: record.version, kind: record.kind,
          source: record.sourceLine.map { "\(record.sourcePath):\($0)" } ?? record.sourcePath,
          status: record.status,
          environment: record.environment,
          capturedAt: record.capturedMilliseconds.map(Timestamp.init(millisecondsSince1970:)),
          isEvaluated: false,
          setAside: record.setAside.map {
            AccountEvidence.SetAside(
              path: $0.path, reason: $0.reason, detail: $0.detail, excerpt: $0.excerpt)
          }))
      guard let response = try storedResponse(of: record) else { continue }
      responses.append(
        AccountInput.Response(
          version: record.version,
          capturedAt: record.capturedMilliseconds.map(Timestamp.init(millisecondsSince1970:)),
          response: response))
    }
    let seeds = records.seeds.map { seed in
      AccountEvidence.SeedId(
        id: seed.originalTransactionId, source: seed.source,
        outcome: seed.outcome.flatMap { Self.outcome($0.outcome) } ?? .pending,
        environment: seed.outcome?.environment, lastError: seed.outcome?.lastError,
        isUnverified: seed.source.hasPrefix("raw_receipt") && seed.source != "raw_receipt_verified")
    }
    let customers = try records.customers.map { customer in
      AccountInput.Customer(
        key: customer.row.key, environment: customer.row.environment,
        otherAccounts: customer.otherAccounts,
        data: AppStoreCustomerData(
          transactions: try storedTransactions(of: customer),
          statuses: try customer.statuses.map { row in
            StatusEntry(
              group: row.subscriptionGroup, status: SubscriptionStatus(rawValue: row.status),
              originalTransactionId: row.originalTransactionId,
              transaction: try StoredSignedValue.decode(row.transaction, as: JWSTransaction.self),
              renewal: try row.renewal.map {
                try StoredSignedValue.decode($0, as: JWSRenewalInfo.self)
              })
          }),
        isComplete: customer.row.isHistoryComplete && customer.row.areStatusesComplete,
        pendingRefresh: pendingRefreshes[customer.row.id],
        originalApplicationVersion: customer.originalApplicationVersion,
        vouchedThrough: Self.vouchedThrough(customer.row, watermarks: watermarks))
    }
    var input = AccountInput(
      accountId: records.accountId, responses: responses, records: evidence, seeds: seeds,
      customers: customers,
      table: table)
    input.orders = records.orders.map { order in
      AccountEvidence.OrderId(
        orderId: order.orderId,
        outcome: order.outcome.flatMap { AccountEvidence.OrderId.Outcome(rawValue: $0.outcome) }
          ?? .pending,
        transactionIds: order.outcome?.transactionIds ?? [],
        lastError: order.outcome?.lastError)
    }
    return input
  }

  /// The latest instant a customer's data holds through: its fetch, or its environment's
  /// watermark when that is later (the feed vouched for the time between); `nil` when its fetch
  /// is not recorded (stored before schema version 4).
  static func vouchedThrough(_ customer: CustomerRow, watermarks: [String: Timestamp])
    -> Timestamp?
  {
    guard let fetched = customer.statusesFetchedMilliseconds else { return nil }
    let instant = Timestamp(millisecondsSince1970: fetched)
    guard let watermark = watermarks[customer.environment] else { return instant }
    return max(instant, watermark)
  }
}
