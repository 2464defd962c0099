import CryptoSupport
import Foundation

/// Reads legacy inputs — NDJSON files, directories of `.json` responses, seed CSV files — and
/// reports every record as accepted or quarantined, streaming, with memory that does not grow
/// with the input.
///
/// Every problem is reported with the file, the line or byte offset, and the reason, and
/// reading goes on: an unreadable or empty file is one quarantined input, a bad line is one
/// quarantined record, and a record with a field that cannot be used is accepted as partial
/// with that field set aside (``LegacyRecord/setAside``). Records read always equal accepted
/// (whole or partial) plus quarantined.
public struct LegacyInputReader: Sendable {
  /// Reading limits and choices.
  public struct Options: Sendable {
    /// The largest record (NDJSON line, CSV row, `.json` file) accepted; larger ones are
    /// quarantined without being held in memory.
    public var maximumRecordBytes: Int
    /// A format to use for every file instead of detecting it.
    public var forcedFormat: LegacyInputFormat?
    /// Verifies the PKCS#7 signatures of raw receipts against user-supplied roots
    /// (`--receipt-root`); `nil` leaves them unchecked.
    public var receiptVerifier: CertificateChainVerifier?
    /// How long a pipe may stay without a writer (or without a first byte) before it is given
    /// up as unreadable, in milliseconds: a minute.
    public var pipeWriterWait: Int64
    /// Whether the caller wants reading to stop, asked between the 100 ms slices of every wait
    /// for a pipe; `reading` then throws `CancellationError`. `nil` when nothing can ask.
    public var isStopping: (@Sendable () -> Bool)?

    /// Creates options.
    ///
    /// - Parameters:
    ///   - maximumRecordBytes: the largest record accepted (default 32 MiB).
    ///   - forcedFormat: a format for every file, or `nil` to detect it.
    ///   - receiptVerifier: checks raw receipts' signatures, or `nil` to leave them unchecked.
    ///   - pipeWriterWait: how long a pipe may stay silent before its first byte, in ms.
    ///   - isStopping: whether the caller wants reading to stop.
    public init(
      maximumRecordBytes: Int = 32 << 20, forcedFormat: LegacyInputFormat? = nil,
      receiptVerifier: CertificateChainVerifier? = nil, pipeWriterWait: Int64 = 60_000,
      isStopping: (@Sendable () -> Bool)? = nil
    ) {
      self.maximumRecordBytes = maximumRecordBytes
      self.forcedFormat = forcedFormat
      self.receiptVerifier = receiptVerifier
      self.pipeWriterWait = pipeWriterWait
      self.isStopping = isStopping
    }
  }

  /// A file chosen for reading, with the format it will be read as.
  public struct InputFile: Hashable, Sendable {
    /// The file's path.
    public var path: String
    /// The format, or `nil` when the file could not be examined (it is then reported as
    /// unreadable when read).
    public var format: LegacyInputFormat?
    /// The size in bytes (0 when unknown).
    public var byteCount: Int64
    /// Whether it is a pipe: read once, as it arrives, its size unknown and its format (when
    /// its name does not say) told by its first line.
    public var isStream = false
    /// Why it cannot be read at all (a device, a loop of links), reported when it is read.
    public var refusal: String?
  }

  /// The options in use.
  public let options: Options

  /// Creates a reader.
  ///
  /// - Parameter options: limits and format choice.
  public init(options: Options = Options()) {
    self.options = options
  }

  // MARK: - Discovery

  /// Expands the given paths into the files to read, in a stable order: files as given,
  /// directories walked recursively (sorted; hidden entries and directory symlinks skipped).
  ///
  /// - Parameter paths: files and directories.
  /// - Returns: the files to read and the ones skipped, with the reason.
  public func discover(_ paths: [String]) -> (
    files: [InputFile], skipped: [(path: String, reason: String)]
  ) {
    var files: [InputFile] = []
    var skipped: [(String, String)] = []
    let manager = FileManager.default
    for path in paths {
      var isDirectory: ObjCBool = false
      if manager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
        walk(directory: path, into: &files, skipped: &skipped)
        continue
      }
      // An explicitly named input is always reported: read, or refused with the reason when it
      // is read. Its format comes from its extension, then from its content — for a pipe, from
      // its first line as it is read, since a pipe can be read only once.
      let named = options.forcedFormat ?? LegacyInputFormat.forExtension(of: path)
      let kind = FileKind(followingLinksAt: path)
      switch kind {
      case .pipe:
        files.append(InputFile(path: path, format: named, byteCount: 0, isStream: true))
      case .regular:
        files.append(
          InputFile(
            path: path, format: named ?? sniffFormat(path), byteCount: size(of: path)))
      case .directory, .special, .missing:
        files.append(InputFile(path: path, format: nil, byteCount: 0, refusal: kind.refusal))
      }
    }
    return (files, skipped)
  }

  private func walk(
    directory: String, into files: inout [InputFile], skipped: inout [(String, String)]
  ) {
    let manager = FileManager.default
    guard let names = try? manager.contentsOfDirectory(atPath: directory) else {
      // Reported as an unreadable input when read.
      files.append(InputFile(path: directory, format: nil, byteCount: 0))
      return
    }
    for name in names.sorted() where !name.hasPrefix(".") {
      let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
      let attributes = try? manager.attributesOfItem(atPath: path)
      let type = attributes?[.type] as? FileAttributeType
      if type == .typeDirectory {
        walk(directory: path, into: &files, skipped: &skipped)
      } else if type == .typeSymbolicLink {
        // Followed only to a regular file: a link to a directory could loop, and one to a
        // device or a pipe (`/dev/zero`, a FIFO) would never end or never start.
        switch FileKind(followingLinksAt: path) {
        case .regular: addFile(path, into: &files, skipped: &skipped)
        case .directory: skipped.append((path, "symbolic link to a directory (not followed)"))
        case .pipe: skipped.append((path, "symbolic link to a pipe (not followed)"))
        case .special(let kind):
          skipped.append((path, "symbolic link to \(kind) (not followed)"))
        // A broken link to an input is data that was meant to be read: quarantined as
        // unreadable when read, never silently skipped.
        case .missing: addFile(path, into: &files, skipped: &skipped)
        }
      } else if type == .typeRegular {
        addFile(path, into: &files, skipped: &skipped)
      } else {
        // Named pipes, sockets and devices are never read from a folder: reading one can
        // block forever or never reach its end.
        skipped.append(
          (path, "\(FileKind(followingLinksAt: path)) (only regular files are read)"))
      }
    }
  }

  private func addFile(
    _ path: String, into files: inout [InputFile], skipped: inout [(String, String)]
  ) {
    if let format = options.forcedFormat ?? LegacyInputFormat.forExtension(of: path) {
      files.append(InputFile(path: path, format: format, byteCount: size(of: path)))
    } else {
      skipped.append((path, "not an input format (.ndjson, .jsonl, .json or .csv)"))
    }
  }

  private func size(of path: String) -> Int64 {
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
  }

  /// Guesses the format of a file without a known extension from its first line.
  private func sniffFormat(_ path: String) -> LegacyInputFormat? {
    guard
      let reader = try? LineReader(path: path, chunkSize: 64 * 1024, maximumLineLength: 1 << 20),
      let line = try? reader.next()
    else { return nil }
    let text = String(decoding: line.bytes.prefix(4096), as: UTF8.self).lowercased()
    if text.hasPrefix("{") {
      return line.isTooLong || (try? reader.next()) != nil ? .ndjson : .json
    }
    if text.contains("account_id") && text.contains(",") { return .csv }
    return .ndjson
  }

  // MARK: - Reading

  /// Reads the given paths and reports every record.
  ///
  /// - Parameters:
  ///   - paths: files and directories.
  ///   - handle: called for every event, in order; it may throw to stop reading.
  /// - Throws: only what `handle` throws: input problems are events, not errors.
  public func read(_ paths: [String], handle: (LegacyInputEvent) throws -> Void) throws {
    let (files, skipped) = discover(paths)
    for (path, reason) in skipped { try handle(.skipped(path: path, reason: reason)) }
    var bytesBefore: Int64 = 0
    for file in files {
      try handle(
        .fileStarted(path: file.path, format: file.format ?? .json, byteCount: file.byteCount))
      var consumed: Int64 = 0
      try read(file, bytesBefore: bytesBefore, consumed: &consumed, handle: handle)
      // A pipe's size is what came through it.
      bytesBefore += file.isStream ? consumed : file.byteCount
      try handle(.progress(bytesRead: bytesBefore))
    }
  }

  private func read(
    _ file: InputFile, bytesBefore: Int64, consumed: inout Int64,
    handle: (LegacyInputEvent) throws -> Void
  ) throws {
    let position = RecordPosition(path: file.path, line: nil, byteOffset: 0)
    if let refusal = file.refusal {
      try handle(.quarantined(unreadable(position, reason: "it is \(refusal)")))
      return
    }
    guard let format = file.format ?? (file.isStream ? .ndjson : nil) else {
      try handle(
        .quarantined(unreadable(position, reason: "it is not a readable file or directory")))
      return
    }
    switch format {
    case .ndjson, .csv:
      try readLines(
        file, format: format, bytesBefore: bytesBefore, consumed: &consumed, handle: handle)
    case .json:
      try readWholeFile(file, consumed: &consumed, handle: handle)
    }
  }

  private func unreadable(_ position: RecordPosition, reason: String) -> QuarantinedRecord {
    QuarantinedRecord(reason: .unreadableFile, detail: reason, position: position, excerpt: "")
  }

  /// Reads a line-based file (NDJSON or CSV).
  private func readLines(
    _ file: InputFile, format: LegacyInputFormat, bytesBefore: Int64, consumed: inout Int64,
    handle: (LegacyInputEvent) throws -> Void
  ) throws {
    let filePosition = RecordPosition(path: file.path, line: nil, byteOffset: 0)
    var format = format
    let lines: LineReader
    do {
      lines = try LineReader(
        path: file.path, maximumLineLength: options.maximumRecordBytes,
        carriageReturnEndsLine: format == .csv, stream: stream(file))
      if file.isStream && file.format == nil {
        // A pipe without a telling name: its first line says CSV or NDJSON, looked at without
        // being taken, since a pipe cannot be opened again to look.
        format = Self.format(ofFirstLine: try lines.peek(upTo: 4096))
        lines.carriageReturnEndsLine = format == .csv
      }
    } catch {
      if error.isStop { throw CancellationError() }
      try handle(.quarantined(unreadable(filePosition, reason: error.reason)))
      return
    }
    defer { consumed = lines.bytesConsumed }
    var sawContent = false
    var csv: CSVSeedParser?
    var pendingRow: (bytes: [UInt8], position: RecordPosition)?
    var lastProgress: Int64 = 0
    while true {
      let line: LineReader.Line
      do {
        guard let next = try lines.next() else { break }
        line = next
      } catch {
        if error.isStop { throw CancellationError() }
        try handle(
          .quarantined(
            unreadable(
              RecordPosition(path: file.path, line: nil, byteOffset: lines.bytesConsumed),
              reason: error.reason)))
        return
      }
      let position = RecordPosition(path: file.path, line: line.number, byteOffset: line.offset)
      if lines.bytesConsumed - lastProgress >= 1 << 20 {
        lastProgress = lines.bytesConsumed
        try handle(.progress(bytesRead: bytesBefore + lastProgress))
      }
      if line.isTooLong {
        sawContent = true
        try handle(
          .quarantined(
            QuarantinedRecord(
              reason: .recordTooLarge,
              detail:
                "the line is \(line.length) bytes; the limit is \(options.maximumRecordBytes) bytes (raise it with --max-record-bytes)",
              position: position, excerpt: ExcerptSanitizer.excerpt(of: line.bytes))))
        continue
      }
      // A byte-order mark is how some Windows tools start UTF-8 text; it is not content.
      var bytes = line.bytes
      if line.number == 1, bytes.starts(with: Self.byteOrderMark) {
        bytes = UnsafeRawBufferPointer(rebasing: bytes[Self.byteOrderMark.count...])
      }
      if var pending = pendingRow {
        // The previous CSV row ended inside a quoted field: this line continues it (the line
        // break it holds was kept as the file wrote it).
        pending.bytes.append(contentsOf: bytes)
        if pending.bytes.count > options.maximumRecordBytes {
          pendingRow = nil
          try handle(
            .quarantined(
              QuarantinedRecord(
                reason: .recordTooLarge,
                detail:
                  "the row (a quoted field spanning lines) passes \(options.maximumRecordBytes) bytes (raise it with --max-record-bytes)",
                position: pending.position,
                excerpt: pending.bytes.withUnsafeBytes { ExcerptSanitizer.excerpt(of: $0) })))
        } else if pending.bytes.withUnsafeBytes(CSVSeedParser.endsInsideQuotes) {
          pending.bytes.append(contentsOf: line.terminator.bytes)
          pendingRow = pending
        } else {
          pendingRow = nil
          try pending.bytes.withUnsafeBytes { row in
            try handle(csvRow(row, parser: csv, position: pending.position))
          }
        }
        continue
      }
      if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
      sawContent = true
      switch format {
      case .csv:
        guard let parser = csv else {
          do {
            csv = try CSVSeedParser(header: bytes)
          } catch {
            // Without a header no row can be read: the whole file is one quarantined input.
            try handle(.quarantined(quarantine(error, position, bytes)))
            return
          }
          continue
        }
        if CSVSeedParser.endsInsideQuotes(bytes) {
          pendingRow = (Array(bytes) + line.terminator.bytes, position)
          continue
        }
        try handle(csvRow(bytes, parser: parser, position: position))
      default:
        try handle(decodeRecord(bytes, format: .ndjson, position: position, fallbackAccountId: nil))
      }
    }
    if let pending = pendingRow {
      try pending.bytes.withUnsafeBytes { row in
        try handle(
          .quarantined(
            quarantine(
              RecordRejection(
                .badCSVRow, "unterminated quoted field (the file ends inside it)"),
              pending.position, row)))
      }
    }
    if !sawContent {
      try handle(
        .quarantined(
          QuarantinedRecord(
            reason: .emptyFile, detail: "the file holds no records", position: filePosition,
            excerpt: "")))
    }
  }

  /// How a pipe is waited for; `nil` for a file.
  private func stream(_ file: InputFile) -> LineReader.Stream? {
    guard file.isStream else { return nil }
    return LineReader.Stream(writerWait: options.pipeWriterWait, isStopping: options.isStopping)
  }

  /// The format a first line says: a seed CSV header names `account_id` beside a comma;
  /// anything else is read as NDJSON.
  static func format(ofFirstLine bytes: UnsafeRawBufferPointer) -> LegacyInputFormat {
    let line = bytes.prefix { $0 != 0x0A && $0 != 0x0D }
    let text = String(decoding: line, as: UTF8.self).lowercased()
    return !text.hasPrefix("{") && text.contains("account_id") && text.contains(",")
      ? .csv : .ndjson
  }

  /// The UTF-8 byte-order mark.
  static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

  /// One CSV data row as an accepted seed or a quarantine entry.
  private func csvRow(
    _ bytes: UnsafeRawBufferPointer, parser: CSVSeedParser?, position: RecordPosition
  ) -> LegacyInputEvent {
    guard let parser else {
      return .quarantined(
        quarantine(RecordRejection(.badCSVHeader, "the file has no header row"), position, bytes))
    }
    do {
      let row = try parser.row(bytes)
      return .record(
        LegacyRecord(
          accountId: row.accountId, position: position, format: .csv,
          content: .seed(originalTransactionId: row.originalTransactionId),
          environment: row.environment, capturedAt: nil, rawBytes: Array(bytes),
          appTransactionId: row.appTransactionId, orderId: row.orderId, setAside: row.setAside))
    } catch {
      return .quarantined(quarantine(error, position, bytes))
    }
  }

  /// Reads a `.json` file holding one stored response.
  private func readWholeFile(
    _ file: InputFile, consumed: inout Int64, handle: (LegacyInputEvent) throws -> Void
  ) throws {
    let position = RecordPosition(path: file.path, line: nil, byteOffset: 0)
    if file.byteCount > Int64(options.maximumRecordBytes) {
      try handle(
        .quarantined(
          QuarantinedRecord(
            reason: .recordTooLarge,
            detail:
              "the file is \(file.byteCount) bytes; the limit is \(options.maximumRecordBytes) bytes (raise it with --max-record-bytes)",
            position: position, excerpt: "")))
      return
    }
    var bytes: [UInt8]
    do {
      bytes = try readFile(file)
      consumed = Int64(bytes.count)
      if bytes.starts(with: Self.byteOrderMark) { bytes.removeFirst(Self.byteOrderMark.count) }
    } catch {
      if error.isStop { throw CancellationError() }
      try handle(.quarantined(unreadable(position, reason: error.reason)))
      return
    }
    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
      try handle(
        .quarantined(
          QuarantinedRecord(
            reason: .emptyFile, detail: "the file is empty", position: position, excerpt: "")))
      return
    }
    let name = file.path.split(separator: "/").last.map(String.init) ?? file.path
    let stem = name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
    try bytes.withUnsafeBytes { buffer in
      try handle(decodeRecord(buffer, format: .json, position: position, fallbackAccountId: stem))
    }
  }

  private func readFile(_ file: InputFile) throws(FileReadError) -> [UInt8] {
    let lines = try LineReader(
      path: file.path, maximumLineLength: options.maximumRecordBytes, stream: stream(file))
    var bytes: [UInt8] = []
    var first = true
    while let line = try lines.next() {
      if !first { bytes.append(0x0A) }
      first = false
      bytes.append(contentsOf: line.bytes)
      // A pipe's size is not known before: its document is bounded as it arrives.
      guard bytes.count <= options.maximumRecordBytes else {
        throw FileReadError(
          path: file.path, errno: EFBIG,
          detail: "the document passes \(options.maximumRecordBytes) bytes (raise the limit "
            + "with --max-record-bytes)")
      }
    }
    return bytes
  }

  /// Turns one record's bytes into an accepted record or a quarantine entry.
  private func decodeRecord(
    _ bytes: UnsafeRawBufferPointer, format: LegacyInputFormat, position: RecordPosition,
    fallbackAccountId: String?
  ) -> LegacyInputEvent {
    do {
      let decoded = try NDJSONRecordDecoder.decode(bytes, allowBareResponse: format == .json)
      guard let accountId = (decoded.accountId ?? fallbackAccountId), !accountId.isEmpty else {
        return .quarantined(
          quarantine(
            RecordRejection(.missingAccountId, "the record has no 'account_id'"), position, bytes))
      }
      let content: LegacyRecord.Content
      var environment = decoded.environment
      var capturedAt = decoded.capturedAt
      switch decoded.content {
      case .response(let response):
        content = .response(response)
      case .idsOnly:
        content = .seed(originalTransactionId: nil)
      case .rawReceipt(let base64):
        // Ids come from the receipt itself; one that cannot be read is bad input like any other.
        let seeds: RawReceiptSeeds
        do {
          seeds = try RawReceiptReader(verifier: options.receiptVerifier).seeds(
            fromBase64: base64, signatureInstant: nil)
        } catch {
          return .quarantined(
            quarantine(
              RecordRejection(.unreadableReceipt, "receipt_data: \(error.description)"), position,
              bytes))
        }
        content = .rawReceipt(base64: base64, seeds: seeds)
        environment = environment ?? seeds.environment
        capturedAt = capturedAt ?? seeds.creationDate
      }
      let record = LegacyRecord(
        accountId: accountId, position: position, format: format, content: content,
        environment: environment, capturedAt: capturedAt, rawBytes: Array(bytes),
        appTransactionId: decoded.appTransactionId, orderId: decoded.orderId,
        setAside: decoded.setAside)
      // The decoders set aside every id that cannot be Apple's; one that got through anyway
      // would be sent to Apple as if it were, so the record is refused rather than trusted.
      for id in record.originalTransactionIds + (record.appTransactionId.map { [$0] } ?? []) {
        if let problem = TransactionIdentifierCheck.problem(
          with: id, field: "original_transaction_id")
        {
          return .quarantined(
            quarantine(RecordRejection(.malformedTransactionId, problem), position, bytes))
        }
      }
      return .record(record)
    } catch {
      return .quarantined(quarantine(error, position, bytes))
    }
  }

  private func quarantine(
    _ rejection: RecordRejection, _ position: RecordPosition, _ bytes: UnsafeRawBufferPointer
  ) -> QuarantinedRecord {
    QuarantinedRecord(
      reason: rejection.reason, detail: rejection.detail, position: position,
      excerpt: ExcerptSanitizer.excerpt(of: bytes))
  }
}
