import Chronology
import Foundation
import MigrationStore
import Synchronization

/// Writes ingest batches on a thread of its own, one transaction per batch.
final class BatchWriter: Sendable {
  struct Counts: Sendable {
    var newRecords = 0
    var alreadyStored = 0
  }

  /// The store, used only by the writer thread between `start()` and `finish()`.
  private let store: StoreHandle
  private let runId: Int64
  private let now: @Sendable () -> Timestamp
  private let handoff = BoundedHandoff<IngestStage.Batch>(capacity: 2)
  private let outcome = Mutex<Result<Counts, any Error>?>(nil)
  private let done = DispatchSemaphore(value: 0)

  init(store: MigrationStore, runId: Int64, now: @escaping @Sendable () -> Timestamp) {
    self.store = StoreHandle(store)
    self.runId = runId
    self.now = now
  }

  func start() {
    let thread = Thread { [self] in
      outcome.withLock { $0 = Result { try writeAll() } }
      handoff.close()
      done.signal()
    }
    thread.name = "ingest-writer"
    thread.start()
  }

  /// Queues a batch, waiting while two are already queued.
  ///
  /// - Throws: the writer's error, if it has failed.
  func submit(_ batch: IngestStage.Batch) throws {
    guard handoff.put(batch) else {
      // The writer stops early only when a write failed; `finish()` rethrows that error.
      _ = try finish()
      throw CancellationError()
    }
  }

  /// Waits for every queued batch to be written.
  ///
  /// - Returns: what was written.
  /// - Throws: the writer's error.
  func finish() throws -> Counts {
    handoff.close()
    done.wait()
    done.signal()  // later calls return at once
    guard let result = outcome.withLock({ $0 }) else { return Counts() }
    return try result.get()
  }

  private func writeAll() throws -> Counts {
    var counts = Counts()
    while let batch = handoff.take() {
      try write(batch, into: &counts)
    }
    return counts
  }

  private func write(_ batch: IngestStage.Batch, into counts: inout Counts) throws {
    let store = store.value
    let instant = now().millisecondsSince1970
    try store.writeTransaction {
      for item in batch.items {
        switch item {
        case .record(let prepared):
          let insertion = try store.storeLegacyRecord(prepared.row, runId: runId, now: instant)
          let isNew: Bool
          switch insertion {
          case .inserted:
            counts.newRecords += 1
            isNew = true
            try store.storeSeeds(
              prepared.seeds, accountId: prepared.row.accountId, recordId: insertion.recordId)
          case .alreadyStored:
            counts.alreadyStored += 1
            isNew = false
          }
          for verdict in prepared.verdicts where isNew || !verdict.onlyWhenNew {
            try store.storeOldEntitlements(
              verdict.rows, recordId: insertion.recordId, asOfMilliseconds: verdict.asOf)
          }
        case .quarantined(let row):
          try store.storeQuarantine(row, runId: runId)
        }
      }
    }
  }
}

/// Carries the store to the writer thread.
///
/// `@unchecked Sendable` because ownership is handed over, not shared: the caller does not
/// touch the store between `BatchWriter.start()` and the return of `BatchWriter.finish()`,
/// and the semaphore in `finish()` orders the writer's last use before the caller's next one.
private final class StoreHandle: @unchecked Sendable {
  let value: MigrationStore

  init(_ value: MigrationStore) { self.value = value }
}
