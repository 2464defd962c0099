import Chronology
import CryptoSupport
import JSON
import LegacyReceipts
import MigrationStore

/// The ingest stage: reads legacy inputs and stores every record verbatim, its seed ids, and the
/// old logic's verdicts; quarantines what cannot be read. Idempotent: the same input twice adds
/// nothing, and a changed record for an account becomes a new version.
///
/// Memory stays flat: records are read one at a time and written in bounded batches, each batch
/// one transaction, so a crash loses at most the batch in flight and a rerun completes it.
public struct IngestStage {
  private let store: MigrationStore
  private let options: IngestOptions
  private let now: @Sendable () -> Timestamp
  private let observer: (any ProgressObserver)?
  private let logic: OldEntitlementLogic

  /// The stage's name in progress reports.
  public static let name = "ingest"

  /// How many quarantined inputs a summary shows.
  static let sampleLimit = 10

  /// Creates the stage.
  ///
  /// - Parameters:
  ///   - store: where to write.
  ///   - options: what to read.
  ///   - now: the clock.
  ///   - observer: where progress goes.
  public init(
    store: MigrationStore, options: IngestOptions, now: @escaping @Sendable () -> Timestamp,
    observer: (any ProgressObserver)? = nil
  ) {
    self.store = store
    self.options = options
    self.now = now
    self.observer = observer
    self.logic = OldEntitlementLogic(catalog: options.catalog)
  }

  /// Whether the last finished ingest read exactly these inputs (same files, sizes and
  /// modification times, same options), so running again would add nothing.
  ///
  /// Not so while a usable response lacks a current compact copy (a store written before
  /// schema version 8, or before the compact form changed): reading the same files again adds
  /// exactly those copies.
  ///
  /// - Returns: `true` when the inputs are unchanged and every copy is current.
  /// - Throws: `SQLiteError`.
  public func inputsAreAlreadyIngested() throws -> Bool {
    // What a pipe holds is not known until it is read, and it can be read only once.
    let files = LegacyInputReader(options: options.reader).discover(options.paths).files
    guard !files.contains(where: \.isStream),
      try !store.hasResponsesWithoutCompactCopy(format: CompactResponse.formatVersion),
      let inputs = try store.latestFinishedIngestInputs(),
      let previous = try? JSONValue(parsing: Array(inputs.utf8))["fingerprint"]
    else { return false }
    let current = try? JSONValue(
      parsing: Array(IngestFingerprint.compute(paths: options.paths, reader: options.reader).utf8))
    return previous == current
  }

  /// Runs the stage.
  ///
  /// Reading, decoding, hashing and the old logic run on the calling thread; SQLite writes run
  /// on a writer thread, fed through a hand-off of at most two batches — so the two cores
  /// overlap parsing with I/O while memory stays bounded.
  ///
  /// - Returns: what was read and what the store holds.
  /// - Throws: `SQLiteError` when the store fails; input problems are quarantined, not thrown.
  public func run() throws -> IngestSummary {
    let started = now()
    var summary = IngestSummary()
    summary.asOf = options.asOf
    let runId = try store.beginIngestRun(
      inputs: inputsJSON(), startedMilliseconds: started.millisecondsSince1970)
    var readerOptions = options.reader
    // A pipe is waited for in slices that look at the run's stop request, so a signal ends a
    // read waiting for a writer as it ends every other wait.
    readerOptions.isStopping = readerOptions.isStopping ?? StopRequest.isRequestedInCurrentTask
    let reader = LegacyInputReader(options: readerOptions)
    let total = reader.discover(options.paths).files.reduce(Int64(0)) { $0 + $1.byteCount }
    observer?.stageStarted(Self.name, unit: "bytes", total: total)
    try store.beginBulkWrites()
    let writer = BatchWriter(store: store, runId: runId, now: now)
    writer.start()
    var batch = Batch()
    var reported: Int64 = 0
    do {
      try reader.read(options.paths) { event in
        switch event {
        case .record(let record):
          summary.recordsRead += 1
          if record.isPartial {
            summary.partial += 1
            observer?.counted(Self.name, "partial", by: 1)
            for field in record.setAside {
              summary.setAsideByReason[field.reason, default: 0] += 1
              if summary.setAsideSamples.count < Self.sampleLimit {
                summary.setAsideSamples.append((record.position, field))
              }
            }
          } else {
            summary.accepted += 1
          }
          summary.acceptedByKind[record.kindName, default: 0] += 1
          batch.append(.record(prepare(record)), bytes: record.rawBytes.count)
        case .quarantined(let entry):
          summary.recordsRead += 1
          summary.quarantined += 1
          summary.quarantinedByReason[entry.reason, default: 0] += 1
          if summary.quarantineSamples.count < Self.sampleLimit {
            summary.quarantineSamples.append(entry)
          }
          observer?.counted(Self.name, "quarantined", by: 1)
          batch.append(.quarantined(quarantineRow(for: entry)), bytes: entry.excerpt.utf8.count)
        case .skipped(let path, let reason):
          summary.skippedFiles.append((path, reason))
        case .fileStarted:
          break
        case .progress(let bytesRead):
          observer?.advanced(Self.name, by: bytesRead - reported)
          reported = bytesRead
          summary.bytesRead = bytesRead
        }
        if batch.isFull(records: options.batchRecords, bytes: options.batchBytes) {
          // A stop request ends reading between batches; every batch is written whole.
          try StopRequest.checkpoint()
          try writer.submit(batch)
          batch = Batch()
        }
      }
      if !batch.items.isEmpty { try writer.submit(batch) }
    } catch {
      _ = try? writer.finish()
      throw error
    }
    let written = try writer.finish()
    summary.newRecords = written.newRecords
    summary.alreadyStored = written.alreadyStored
    try store.endBulkWrites()
    summary.totals = try store.legacyTotals()
    if let asOf = options.asOf {
      summary.oldEntitlementsAsOfByStatus = try store.latestOldEntitlementsByStatus(
        asOfMilliseconds: asOf.millisecondsSince1970)
    }
    let finished = now()
    summary.durationMilliseconds = finished.milliseconds(since: started)
    try store.finishIngestRun(
      runId, finishedMilliseconds: finished.millisecondsSince1970,
      summary: IngestSummaryRenderer.json(summary, style: .compact))
    observer?.stageFinished(Self.name)
    return summary
  }

  // MARK: - Preparing records

  /// Everything derived from a record before it reaches the writer: the stored row, its seeds
  /// and the old logic's verdicts.
  struct PreparedRecord: Sendable {
    var row: LegacyRecordRow
    var seeds: [SeedRow]
    /// Verdicts at the capture instant (stored only when the record is new), and at `--as-of`.
    var verdicts: [(rows: [OldEntitlementRow], asOf: Int64, onlyWhenNew: Bool)]
  }

  private func prepare(_ record: LegacyRecord) -> PreparedRecord {
    var verdicts: [(rows: [OldEntitlementRow], asOf: Int64, onlyWhenNew: Bool)] = []
    if case .response(let response) = record.content, response.status.carriesTransactions {
      if let captured = record.capturedAt {
        let rows = logic.evaluate(response, at: captured).map {
          OldEntitlementRow($0, at: captured, basis: "capture")
        }
        verdicts.append((rows, captured.millisecondsSince1970, true))
      }
      if let asOf = options.asOf, asOf != record.capturedAt {
        let rows = logic.evaluate(response, at: asOf).map {
          OldEntitlementRow($0, at: asOf, basis: "as_of")
        }
        verdicts.append((rows, asOf.millisecondsSince1970, false))
      }
    }
    return PreparedRecord(row: row(for: record), seeds: seeds(for: record), verdicts: verdicts)
  }

  /// Buffered items, written together in one transaction.
  struct Batch: Sendable {
    enum Item: Sendable {
      case record(PreparedRecord)
      case quarantined(QuarantineRow)
    }

    var items: [Item] = []
    var bytes = 0

    mutating func append(_ item: Item, bytes count: Int) {
      items.append(item)
      bytes += count
    }

    func isFull(records: Int, bytes limit: Int) -> Bool {
      items.count >= records || bytes >= limit
    }
  }

  // MARK: - Mapping to rows

  private func row(for record: LegacyRecord) -> LegacyRecordRow {
    var status: Int64?
    var bundleId: String?
    var shape: String?
    var compact: CompactCopy?
    var raw = record.rawBytes
    if case .response(let response) = record.content {
      // The receipt Apple sent back is the customer's purchase history and nothing reads it:
      // kept only when asked (the hash below stays the one of the bytes as read).
      if response.hadLatestReceipt && !options.keepsLatestReceipt {
        raw = LatestReceiptRemoval.removing(from: raw)
      }
      status = response.status.rawValue
      bundleId = response.bundleId
      shape = response.shape.rawValue
      // What compare reads back instead of the verbatim bytes (see `CompactResponse`).
      if response.status.carriesTransactions {
        compact = CompactCopy(
          format: CompactResponse.formatVersion, body: CompactResponse.encode(response))
      }
    }
    var row = LegacyRecordRow(
      accountId: record.accountId, contentSHA256: SHA256.hash(record.rawBytes),
      sourcePath: record.position.path, sourceLine: record.position.line,
      sourceOffset: record.position.byteOffset, format: record.format.rawValue,
      kind: record.kindName,
      status: status, environment: record.environment?.description,
      capturedMilliseconds: record.capturedAt?.millisecondsSince1970, bundleId: bundleId,
      shape: shape,
      raw: raw, compact: compact)
    row.setAside = record.setAside.map {
      SetAsideFieldRow(
        path: $0.path, reason: $0.reason.rawValue, detail: $0.detail, excerpt: $0.excerpt,
        byteOffset: $0.byteOffset)
    }
    row.orderId = record.orderId
    return row
  }

  /// Every id of the record to look the customer up with, with where it was first found: its
  /// original transaction ids, and its app transaction id (which the App Store Server API takes
  /// wherever it takes a transaction id).
  private func seeds(for record: LegacyRecord) -> [SeedRow] {
    var seeds = transactionSeeds(for: record)
    if let appTransactionId = record.appTransactionId,
      !seeds.contains(where: { $0.originalTransactionId == appTransactionId })
    {
      seeds.append(
        SeedRow(
          originalTransactionId: appTransactionId, source: "app_transaction_id",
          environment: record.environment?.description))
    }
    return seeds
  }

  /// Every original transaction id of the record, with where it was first found.
  private func transactionSeeds(for record: LegacyRecord) -> [SeedRow] {
    let environment = record.environment?.description
    switch record.content {
    case .seed(let id):
      return id.map {
        [
          SeedRow(
            originalTransactionId: $0, source: record.format.rawValue, environment: environment)
        ]
      } ?? []
    case .rawReceipt(_, let seeds):
      // The source says whether Apple's signature vouches for the ids; reports mark the others.
      let source: String
      switch seeds.signature {
      case .valid: source = "raw_receipt_verified"
      case .invalid: source = "raw_receipt_invalid_signature"
      case .notChecked: source = "raw_receipt_unverified"
      }
      return seeds.originalTransactionIds.map {
        SeedRow(originalTransactionId: $0, source: source, environment: environment)
      }
    case .response(let response):
      var seen = Set<String>()
      var seeds: [SeedRow] = []
      func add(_ id: String?, _ source: String) {
        guard let id, !id.isEmpty, seen.insert(id).inserted else { return }
        seeds.append(SeedRow(originalTransactionId: id, source: source, environment: environment))
      }
      for transaction in response.latestReceiptInfo {
        add(transaction.originalTransactionId, transaction.origin.rawValue)
      }
      for transaction in response.receipt?.inApp ?? [] {
        add(transaction.originalTransactionId, transaction.origin.rawValue)
      }
      for renewal in response.pendingRenewalInfo {
        add(renewal.originalTransactionId, "pending_renewal_info")
      }
      return seeds
    }
  }

  private func quarantineRow(for entry: QuarantinedRecord) -> QuarantineRow {
    QuarantineRow(
      sourcePath: entry.position.path, sourceLine: entry.position.line,
      sourceOffset: entry.position.byteOffset,
      contentSHA256: SHA256.hash(
        Array((entry.reason.rawValue + "\n" + entry.detail + "\n" + entry.excerpt).utf8)),
      reason: entry.reason.rawValue, detail: entry.detail, excerpt: entry.excerpt)
  }

  private func inputsJSON() -> String {
    var writer = JSONWriter()
    writer.beginObject()
    writer.key("paths")
    writer.beginArray()
    for path in options.paths { writer.value(path) }
    writer.endArray()
    writer.field("format", options.reader.forcedFormat?.rawValue)
    writer.field("max_record_bytes", options.reader.maximumRecordBytes)
    writer.field("as_of_ms", options.asOf?.millisecondsSince1970)
    writer.key("fingerprint")
    writer.raw(IngestFingerprint.compute(paths: options.paths, reader: options.reader).utf8)
    writer.endObject()
    return writer.string
  }
}

extension LegacyRecord {
  /// `response`, `raw_receipt` or `seed`, as stored.
  var kindName: String {
    switch content {
    case .response: return "response"
    case .rawReceipt: return "raw_receipt"
    case .seed: return "seed"
    }
  }
}

extension OldEntitlementRow {
  /// The stored form of an old-logic verdict.
  init(_ entitlement: OldEntitlement, at instant: Timestamp, basis: String) {
    self.init(
      asOfMilliseconds: instant.millisecondsSince1970, basis: basis,
      entitlementKey: entitlement.key.description, kind: entitlement.kind.rawValue,
      status: entitlement.status.rawValue, isEntitled: entitlement.isEntitled,
      reason: entitlement.reason)
    productId = entitlement.productId
    expiresMilliseconds = entitlement.expiresDate?.millisecondsSince1970
    gracePeriodExpiresMilliseconds = entitlement.gracePeriodExpiresDate?.millisecondsSince1970
    ownership = entitlement.ownership?.description
    expirationIntent = entitlement.expirationIntent?.rawValue
    autoRenewStatus = entitlement.autoRenewStatus
    originalTransactionId = entitlement.originalTransactionId
    transactionId = entitlement.transactionId
    revocationMilliseconds = entitlement.revocationDate?.millisecondsSince1970
  }
}
