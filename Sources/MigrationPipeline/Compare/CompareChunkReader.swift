import AppStoreServerAPI
import Chronology
import Dispatch
import Entitlements
import LegacyReceipts
import MigrationStore

/// What the compare stage reads from the store for one chunk of accounts: their records and,
/// when a team table was stored with the run, its rows.
struct CompareChunkInputs: Sendable {
  /// The accounts' records, in the chunk's order.
  var records: [AccountRecords]
  /// The team table's rows by account, or `nil` when no table is compared.
  var table: [String: [TableRow]]?
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
  ///   - chunks: the accounts of each chunk.
  ///   - body: compares and stores one chunk.
  /// - Throws: `SQLiteError`, or what `body` throws; the read-ahead has stopped when it returns.
  func forEach(_ chunks: [[String]], body: (CompareChunkInputs) throws -> Void) throws {
    guard chunks.count > 1, let reader = try store.openReader() else {
      for chunk in chunks { try body(try Self.read(chunk, from: store, options: options)) }
      return
    }
    let connection = ReaderConnection(store: reader)
    let handoff = BoundedHandoff<Result<CompareChunkInputs, any Error>>(capacity: 1)
    // One chunk is read only once the one before it has been taken: memory holds the chunk
    // being compared and the one being read, never a third waiting in between.
    // (Made at 0 and signalled: libdispatch traps when a semaphore is freed below the value it
    // was made with, which a reader stopped early leaves it at.)
    let mayRead = DispatchSemaphore(value: 0)
    mayRead.signal()
    let done = DispatchSemaphore(value: 0)
    let options = self.options
    DispatchQueue(label: "receipt-migrate.compare.read-ahead", qos: .userInitiated).async {
      defer { done.signal() }
      for chunk in chunks {
        mayRead.wait()
        let inputs = Result { try Self.read(chunk, from: connection.store, options: options) }
        guard handoff.put(inputs), case .success = inputs else { break }
      }
      handoff.close()
    }
    defer {
      // Stop the reader (a put returns at once once closed; a wait for its turn is released)
      // and wait for it before its connection closes.
      handoff.close()
      mayRead.signal()
      done.wait()
      try? reader.close()
    }
    for _ in chunks {
      guard let inputs = handoff.take() else { break }
      mayRead.signal()
      try body(try inputs.get())
    }
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

  /// The team table's rows of these accounts: from memory, or read from the store.
  private static func tableRows(
    of accountIds: [String], from store: MigrationStore, options: CompareOptions
  ) throws -> [String: [TableRow]]? {
    if let table = options.table { return table }
    guard let runId = options.storedTableRunId else { return nil }
    var rows: [String: [TableRow]] = [:]
    for accountId in accountIds {
      rows[accountId] = try store.currentEntitlements(runId: runId, accountId: accountId)
        .compactMap { row in
          EntitlementStatus(rawValue: row.status).map {
            TableRow(
              productId: row.productId, status: $0,
              expiresAt: row.expiresMilliseconds.map(Timestamp.init(millisecondsSince1970:)))
          }
        }
    }
    return rows
  }
}

/// The read-ahead's connection, handed to its thread.
///
/// `@unchecked Sendable`: `MigrationStore` is not thread-safe, and this connection is used by
/// exactly one thread — the read-ahead's — from the moment it is handed over until
/// ``CompareChunkReader/forEach(_:body:)`` has waited for that thread to end; only then is it
/// closed.
private final class ReaderConnection: @unchecked Sendable {
  let store: MigrationStore

  init(store: MigrationStore) {
    self.store = store
  }
}
