import AppStoreServerAPI
import Chronology
import Dispatch
import Entitlements
import LegacyReceipts
import MigrationStore
import Synchronization

/// What the compare stage reads from the store for one chunk of accounts: their records and,
/// when a team table was stored with the run, its rows.
struct CompareChunkInputs: Sendable {
  /// The accounts' records, in the chunk's order.
  var records: [AccountRecords]
  /// The team table's rows of each account, in the order of `records`, or `nil` when no table
  /// is compared.
  ///
  /// By position, not by account id: two ids that differ only in Unicode normalization (`é` as
  /// one scalar or as `e` and an accent) are two accounts in the store, which compares bytes,
  /// but one key in a Swift dictionary, which compares canonical equivalents as equal.
  var table: [[TableRow]]?
}

/// Reads the compare stage's chunks from the store, one ahead of the chunk being compared.
///
/// Comparing is parallel but reading is not (one SQLite connection does one thing at a time),
/// and the stage's own connection also writes each chunk's results. So the next chunk is read
/// on a second, read-only connection on its own thread while the current one is compared and
/// stored: in WAL mode a reader and the writer never wait for each other. A store in memory has
/// no second connection; its chunks are read in turn.
struct CompareChunkReader {
  let store: MigrationStore
  let options: CompareOptions

  /// Calls `body` with each chunk's inputs, in order.
  ///
  /// - Parameters:
  ///   - next: the accounts of the next chunk, or `nil` after the last; called on the caller's
  ///     thread, between calls of `body`, so it may use the store's own connection.
  ///   - body: compares and stores one chunk.
  /// - Throws: `SQLiteError`, or what `next` or `body` throws; the read-ahead has stopped when
  ///   it returns.
  func forEach(next: () throws -> [String]?, body: (CompareChunkInputs) throws -> Void) throws {
    guard let firstChunk = try next() else { return }
    var upcoming = try next()
    guard upcoming != nil, let first = try store.openReader() else {
      var chunk: [String]? = firstChunk
      while let ids = chunk {
        try body(try Self.read(ids, from: store, options: options))
        chunk = upcoming
        if upcoming != nil { upcoming = try next() }
      }
      return
    }
    var readers = [first]
    defer { for reader in readers { try? reader.close() } }
    while readers.count < Self.readerCount, let another = try store.openReader() {
      readers.append(another)
    }
    let connections = readers.map(ReaderConnection.init(store:))
    // The chunks to read go one way, what was read the other. A chunk is asked for only once
    // the one before it has been taken: memory holds the chunk being compared and the one
    // being read, never a third waiting in between.
    let orders = BoundedHandoff<[String]>(capacity: 1)
    let results = BoundedHandoff<Result<CompareChunkInputs, any Error>>(capacity: 1)
    let done = DispatchSemaphore(value: 0)
    let options = self.options
    DispatchQueue(label: "receipt-migrate.compare.read-ahead", qos: .userInitiated).async {
      defer { done.signal() }
      while let chunk = orders.take() {
        let inputs = Result { try Self.read(chunk, through: connections, options: options) }
        guard results.put(inputs), case .success = inputs else { break }
      }
      results.close()
    }
    defer {
      // Stop the reader (a put returns at once once closed; a take returns nil) and wait for it
      // before its connections close.
      orders.close()
      results.close()
      done.wait()
    }
    _ = orders.put(firstChunk)
    while let result = results.take() {
      let inputs = try result.get()
      if let chunk = upcoming {
        _ = orders.put(chunk)
        upcoming = try next()
      } else {
        orders.close()
      }
      try body(inputs)
    }
  }

  /// Connections the read-ahead reads each chunk through, a part of the chunk each, at once.
  ///
  /// A store larger than the page cache is read a page at a time from the disk, each read
  /// waiting for the one before on a single connection. With a part of the chunk on each of
  /// four connections, four reads are in flight: the disk this was measured on answers 1.6 times
  /// as many random reads a second so, and a million-account compare with a cold page cache took
  /// 102 s instead of 134 s (three connections: 110 s). With the pages cached it changes little.
  static let readerCount = 4

  /// Reads one chunk's inputs through several connections, a contiguous part on each, at once.
  static func read(
    _ accountIds: [String], through connections: [ReaderConnection], options: CompareOptions
  ) throws -> CompareChunkInputs {
    let partSize = (accountIds.count + connections.count - 1) / connections.count
    guard connections.count > 1, partSize > 0 else {
      return try read(accountIds, from: connections[0].store, options: options)
    }
    let parts = stride(from: 0, to: accountIds.count, by: partSize).map {
      Array(accountIds[$0..<min(accountIds.count, $0 + partSize)])
    }
    let results = Mutex<[Result<CompareChunkInputs, any Error>?]>(
      Array(repeating: nil, count: parts.count))
    DispatchQueue.concurrentPerform(iterations: parts.count) { index in
      let inputs = Result {
        try read(parts[index], from: connections[index].store, options: options)
      }
      results.withLock { $0[index] = inputs }
    }
    var merged = CompareChunkInputs(records: [], table: nil)
    for result in results.withLock({ $0 }) {
      guard let part = try result?.get() else { continue }
      merged.records.append(contentsOf: part.records)
      if let rows = part.table { merged.table = (merged.table ?? []) + rows }
    }
    return merged
  }

  /// Reads one chunk's inputs through a connection, in one read transaction: the chunk is one
  /// snapshot of the store, and the file is locked once per chunk rather than once for each of
  /// the ten or so statements every account reads.
  static func read(_ accountIds: [String], from store: MigrationStore, options: CompareOptions)
    throws -> CompareChunkInputs
  {
    try store.readTransaction {
      CompareChunkInputs(
        records: try accountIds.map {
          try store.accountRecords(
            $0, compactFormat: CompactResponse.formatVersion,
            compactTransactionFormat: CompactTransaction.formatVersion)
        },
        table: try tableRows(of: accountIds, from: store, options: options))
    }
  }

  /// The team table's rows of each of these accounts, in their order: from memory, or read
  /// from the store.
  private static func tableRows(
    of accountIds: [String], from store: MigrationStore, options: CompareOptions
  ) throws -> [[TableRow]]? {
    if let table = options.table { return accountIds.map { table[AccountKey($0)] ?? [] } }
    guard let runId = options.storedTableRunId else { return nil }
    return try accountIds.map { accountId in
      try store.currentEntitlements(runId: runId, accountId: accountId).compactMap { row in
        EntitlementStatus(rawValue: row.status).map {
          TableRow(
            productId: row.productId, status: $0,
            expiresAt: row.expiresMilliseconds.map(Timestamp.init(millisecondsSince1970:)))
        }
      }
    }
  }
}

/// A read-ahead connection, handed to the read-ahead's thread.
///
/// `@unchecked Sendable`: `MigrationStore` is not thread-safe, and each connection is used by
/// one thread at a time — the read-ahead's, or, while it reads a chunk in parts, the one thread
/// it hands that connection's part to and waits for — from the moment it is handed over until
/// ``CompareChunkReader/forEach(_:body:)`` has waited for the read-ahead to end; only then is it
/// closed.
final class ReaderConnection: @unchecked Sendable {
  let store: MigrationStore

  init(store: MigrationStore) {
    self.store = store
  }
}
