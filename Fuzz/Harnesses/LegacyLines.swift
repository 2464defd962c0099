// libFuzzer harness for how `receipt-migrate ingest` cuts line-based legacy files (Sources/
// LegacyReceipts/Input): `LineReader`, which reads an NDJSON or CSV file a buffer at a time,
// `CSVSeedParser`, which splits a seed CSV row and decides whether a quoted field runs on to the
// next line, and `LegacyInputReader` over the input as a seed CSV and as NDJSON.
//
// The input is written to a file and read back through buffers of 1, 3 and 64 bytes (and of the
// size the input's first byte picks), with and without lone-CR line ends: every reading must
// give the same lines and line ends, the lines and their ends must spell the file again, no
// line may hold a line break of its kind, and every byte must be consumed. A row ends inside
// quotes exactly when splitting it finds its quoted field unterminated. The reader must turn
// the file into records and quarantined entries only, with seed ids (original and app
// transaction ids) of digits, order ids of letters and digits, and non-empty account ids.
// Crashes, hangs and broken invariants (`invariant`) are findings.

import Foundation

@testable import LegacyReceipts

/// Where each input is written: one file per process, rewritten every time.
let inputPath = NSTemporaryDirectory() + "/legacy-lines-\(getpid()).input"

/// Called by libFuzzer once per input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  invariant(FileManager.default.createFile(atPath: inputPath, contents: Data(bytes)), "write")
  for carriageReturn in [false, true] {
    checkLines(bytes, carriageReturn: carriageReturn)
  }
  checkQuotes(bytes)
  for format in [LegacyInputFormat.csv, .ndjson] {
    checkReader(format)
  }
  return 0
}

// MARK: - Lines

/// Reads the file through buffers of several sizes and checks the readings against each other
/// and against the file.
func checkLines(_ bytes: [UInt8], carriageReturn: Bool) {
  var readings: [[(bytes: [UInt8], terminator: [UInt8], isTooLong: Bool)]] = []
  for chunkSize in [1, 3, 64, 1 + Int(bytes.first ?? 0)] {
    let reader = try! LineReader(
      path: inputPath, chunkSize: chunkSize, maximumLineLength: 1 << 20,
      carriageReturnEndsLine: carriageReturn)
    var lines: [(bytes: [UInt8], terminator: [UInt8], isTooLong: Bool)] = []
    while let line = try! reader.next() {
      lines.append((Array(line.bytes), line.terminator.bytes, line.isTooLong))
    }
    invariant(
      reader.bytesConsumed == Int64(bytes.count),
      "chunk \(chunkSize): \(reader.bytesConsumed) of \(bytes.count) bytes consumed")
    readings.append(lines)
  }
  let first = readings[0]
  for (index, reading) in readings.enumerated().dropFirst() {
    invariant(
      reading.count == first.count
        && zip(reading, first).allSatisfy { $0.bytes == $1.bytes && $0.terminator == $1.terminator },
      "reading \(index) differs from the one-byte reading (lone CR: \(carriageReturn))")
  }
  var spelled: [UInt8] = []
  for line in first {
    invariant(!line.isTooLong, "a line under the limit reported too long")
    invariant(!line.bytes.contains(0x0A), "a line holds LF")
    invariant(!carriageReturn || !line.bytes.contains(0x0D), "a line holds CR with lone CR on")
    spelled += line.bytes + line.terminator
  }
  // A CR that ends the file is a line break cut short, and the only byte not spelled again.
  let expected = !carriageReturn && bytes.last == 0x0D ? Array(bytes.dropLast()) : bytes
  invariant(
    spelled == expected, "the lines do not spell the file again (lone CR: \(carriageReturn))")
}

// MARK: - Quotes

/// A row runs on to the next line exactly when splitting it finds an unterminated quote.
func checkQuotes(_ bytes: [UInt8]) {
  guard String(validating: bytes, as: UTF8.self) != nil else { return }
  let runsOn = bytes.withUnsafeBytes { CSVSeedParser.endsInsideQuotes($0) }
  var unterminated = false
  bytes.withUnsafeBytes { row in
    do throws(RecordRejection) {
      _ = try CSVSeedParser.fields(of: row)
    } catch {
      unterminated = error.reason == .badCSVRow
    }
  }
  invariant(
    runsOn == unterminated,
    "endsInsideQuotes says \(runsOn), the split says unterminated \(unterminated): "
      + String(decoding: bytes, as: UTF8.self).debugDescription)
}

// MARK: - The reader

/// Reads the file as a seed CSV or as NDJSON: records (whole or partial) and quarantined entries
/// only.
func checkReader(_ format: LegacyInputFormat) {
  let reader = LegacyInputReader(
    options: .init(maximumRecordBytes: 256, forcedFormat: format))
  try! reader.read([inputPath]) { event in
    switch event {
    case .record(let record):
      invariant(!record.accountId.isEmpty, "a record without an account id")
      // Every id the record gives the App Store is one it could be (digits; an order id of
      // letters and digits); anything else was set aside or quarantined.
      let ids = record.originalTransactionIds + (record.appTransactionId.map { [$0] } ?? [])
      for id in ids {
        invariant(
          !id.isEmpty && id.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }, "seed id \(id)")
      }
      if let order = record.orderId {
        invariant(
          !order.isEmpty
            && order.utf8.allSatisfy {
              ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
            }, "order id \(order)")
      }
      if case .seed(nil) = record.content {
        invariant(
          record.appTransactionId != nil || record.orderId != nil, "a seed record without an id")
      }
      for field in record.setAside {
        invariant(
          !field.path.isEmpty && !field.detail.isEmpty, "a set-aside field without a reason")
      }
    case .quarantined(let entry):
      invariant(!entry.detail.isEmpty, "a quarantined entry without a reason")
    case .fileStarted, .progress, .skipped:
      break
    }
  }
}
