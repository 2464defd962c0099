import AppStoreServerAPI
import Dispatch
import MigrationStore
import Synchronization

/// Builds the compact copies of transactions stored before the store kept them (schema
/// version 9) or before the compact form last changed, so that `compare` reads every customer's
/// copies instead of its signed values.
///
/// The backfill and the refresh store each transaction with its copy; this stage covers what
/// they stored before, once: a store upgraded from version 8 builds every customer's copies the
/// first time it is compared, and none after. Each copy is made from the stored signed value's
/// payload — the value was verified when it was fetched, as `compare` relies on anyway — and a
/// customer's copies replace all its old ones in the same transaction that read its values. A
/// customer whose values cannot be read back keeps none: `compare` then reads its signed
/// values, and reports what is wrong with them, as before.
public struct TransactionCopyStage {
  /// The stage's name in progress reports.
  public static let name = "transaction copies"

  /// Customers read, decoded and written at once.
  static let batchSize = 256

  private let store: MigrationStore
  private let observer: (any ProgressObserver)?

  /// Creates the stage.
  ///
  /// - Parameters:
  ///   - store: the store, open for writing.
  ///   - observer: where progress goes.
  public init(store: MigrationStore, observer: (any ProgressObserver)? = nil) {
    self.store = store
    self.observer = observer
  }

  /// Builds the copies every customer lacks.
  ///
  /// - Returns: how many customers were given a complete set of copies.
  /// - Throws: `SQLiteError`, or ``StopRequest`` when the run is being stopped (the batches
  ///   written so far stay).
  @discardableResult
  public func run() throws -> Int {
    let format = CompactTransaction.formatVersion
    let customers = try store.customersLackingCompactTransactions(format: format)
    guard !customers.isEmpty else { return 0 }
    observer?.stageStarted(Self.name, unit: "customers", total: Int64(customers.count))
    var copied = 0
    for start in stride(from: 0, to: customers.count, by: Self.batchSize) {
      try StopRequest.checkpoint()
      let batch = Array(customers[start..<min(customers.count, start + Self.batchSize)])
      copied += try store.writeTransaction {
        let signed = try batch.map { try store.signedTransactions(ofCustomer: $0) }
        let copies = Self.copies(of: signed)
        var written = 0
        for (customerId, customerCopies) in zip(batch, copies) {
          guard let customerCopies else { continue }
          try store.replaceCompactTransactions(
            customerCopies, format: format, customerId: customerId)
          written += 1
        }
        return written
      }
      observer?.advanced(Self.name, by: Int64(batch.count))
    }
    observer?.stageFinished(Self.name)
    return copied
  }

  /// Each customer's copies, decoded in parallel; `nil` for a customer with a value that
  /// cannot be read back.
  static func copies(of customers: [[(transactionId: String, value: StoredSignedText)]])
    -> [[(transactionId: String, body: [UInt8])]?]
  {
    let results = Mutex<[[(transactionId: String, body: [UInt8])]?]>(
      Array(repeating: nil, count: customers.count))
    DispatchQueue.concurrentPerform(iterations: customers.count) { index in
      let copies = try? customers[index].map { transaction in
        (
          transactionId: transaction.transactionId,
          body: CompactTransaction.encode(
            try StoredSignedValue.decode(transaction.value, as: JWSTransaction.self))
        )
      }
      results.withLock { $0[index] = copies }
    }
    return results.withLock { $0 }
  }
}
