import Chronology
import Foundation
import LegacyReceipts
import TestDirectories
import Testing

/// Reads paths and collects the events.
struct Collected {
  var records: [LegacyRecord] = []
  var quarantined: [QuarantinedRecord] = []
  var skipped: [String] = []

  init(_ paths: [String], options: LegacyInputReader.Options = .init()) throws {
    try LegacyInputReader(options: options).read(paths) { event in
      switch event {
      case .record(let record): records.append(record)
      case .quarantined(let entry): quarantined.append(entry)
      case .skipped(let path, _): skipped.append(path)
      case .fileStarted, .progress: break
      }
    }
  }
}

@Suite("LegacyInputReader")
struct LegacyInputReaderTests {
  @Test("reads the hand-made sample: every record accepted, none lost")
  func handmadeSample() throws {
    let collected = try Collected([legacyDirectory.appendingPathComponent("handmade").path])
    #expect(collected.quarantined.isEmpty, "\(collected.quarantined)")
    // 20 NDJSON lines, 3 JSON files, 4 CSV rows.
    #expect(collected.records.count == 27)
    let accounts = Set(collected.records.map(\.accountId))
    #expect(accounts.contains("acct-2001-ios6"))  // from the file name
    #expect(accounts.contains("acct-2002-directory"))  // from the account_id field
    #expect(accounts.contains("acct-3003, quoted"))
    let raw = try #require(collected.records.first { $0.accountId == "acct-1026-raw-receipt" })
    guard case .rawReceipt = raw.content else {
      Issue.record("expected a raw receipt")
      return
    }
    #expect(raw.capturedAt == Timestamp(parsing: "2024-06-01T08:30:00Z"))
    let errorRecord = try #require(
      collected.records.first { $0.accountId == "acct-1020-error-21010" })
    guard case .response(let response) = errorRecord.content else {
      Issue.record("expected a response")
      return
    }
    #expect(response.status.rawValue == 21010)
  }

  @Test("quarantines every kind of bad input with its position and reason, and goes on")
  func badInputs() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let valid = #"{"account_id": "a1", "response": {"status": 0, "receipt": {"in_app": []}}}"#
    let lines: [String] = [
      valid,
      #"{"account_id": "a2", "response": {"status": 0, "receipt": {"in_app": ["#,  // truncated
      "[1, 2, 3]",  // not an object
      #"{"response": {"status": 0}}"#,  // missing account_id
      #"{"account_id": "a3", "response": {"status": "zero"}}"#,  // wrong type
      #"{"account_id": "a4", "response": {"status": 21002}}"#,  // error status: accepted data
      #"{"account_id": "a5"}"#,  // neither response nor receipt_data
      #"{"account_id": "a6", "response": {"status": 0, "latest_receipt": "MIISECRETSECRETSECRET", "receipt": 7}}"#,
      "",
      "not json at all",
    ]
    var data = Data(lines.joined(separator: "\n").utf8)
    data.append(
      contentsOf: [0x0A]
        + Array(#"{"account_id": "a7", "response": {"status": 0, "environment": ""#.utf8) + [
          0xC3, 0x28,
        ] + Array(#""}}"#.utf8) + [0x0A])
    try data.write(to: directory.appendingPathComponent("mixed.ndjson"))
    try Data().write(to: directory.appendingPathComponent("empty.ndjson"))
    try Data("\u{0}\u{1}binary".utf8).write(to: directory.appendingPathComponent("junk.json"))
    try Data("a picture".utf8).write(to: directory.appendingPathComponent("photo.png"))
    try FileManager.default.createSymbolicLink(
      atPath: directory.appendingPathComponent("dangling.json").path,
      withDestinationPath: "/nonexistent/x.json")

    let collected = try Collected([directory.path])
    // a6's receipt is not an object: set aside, and the rest of the response kept (partial).
    #expect(collected.records.map(\.accountId) == ["a1", "a4", "a6"])
    let partial = try #require(collected.records.first { $0.accountId == "a6" })
    #expect(partial.setAside.map(\.path) == ["response.receipt"])
    #expect(partial.setAside.first?.reason == .wrongType)
    #expect(partial.setAside.first?.excerpt == "7")
    #expect(
      !partial.setAside.contains { $0.excerpt.contains("SECRET") || $0.detail.contains("SECRET") })
    let byLine = Dictionary(
      uniqueKeysWithValues: collected.quarantined.compactMap { entry in
        entry.position.line.map { ($0, entry) }
      })
    #expect(byLine[2]?.reason == .truncatedJSON)
    #expect(byLine[3]?.reason == .notAnObject)
    #expect(byLine[4]?.reason == .missingAccountId)
    #expect(byLine[5]?.reason == .wrongType)
    #expect(
      byLine[5]?.detail
        == "response.status: expected a number or numeric string, found a string at byte 44 of the record"
    )
    #expect(byLine[7]?.reason == .missingContent)
    #expect(byLine[8] == nil)
    #expect(byLine[10]?.reason == .malformedJSON)
    #expect(byLine[11]?.reason == .invalidUTF8)
    #expect(
      byLine[3]?.position.description.hasSuffix(
        "mixed.ndjson:3 (byte \(lines[0].utf8.count + lines[1].utf8.count + 2))") == true)
    let files = collected.quarantined.filter { $0.position.line == nil }
    #expect(Set(files.map(\.reason)) == [.emptyFile, .malformedJSON, .unreadableFile])
    #expect(files.first { $0.reason == .unreadableFile }?.detail == "No such file or directory")
    #expect(collected.skipped.map { URL(fileURLWithPath: $0).lastPathComponent } == ["photo.png"])
    // Read = accepted + quarantined: 10 non-blank lines, an empty file, two bad .json files.
    #expect(collected.records.count + collected.quarantined.count == 10 + 1 + 2)
  }

  @Test("a 100 MB line is quarantined without holding it, and the next line is still read")
  func hugeLine() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let path = directory.appendingPathComponent("huge.ndjson")
    _ = FileManager.default.createFile(atPath: path.path, contents: nil)
    let handle = try FileHandle(forWritingTo: path)
    let opening = Data(#"{"account_id": "big", "response": {"status": 0, "latest_receipt": ""#.utf8)
    handle.write(opening)
    let block = Data(repeating: UInt8(ascii: "A"), count: 1 << 20)
    for _ in 0..<100 { handle.write(block) }
    handle.write(Data("\"}}\n".utf8))
    handle.write(Data(#"{"account_id": "after", "response": {"status": 0}}"#.utf8))
    try handle.close()

    let collected = try Collected([path.path])
    #expect(collected.records.map(\.accountId) == ["after"])
    let entry = try #require(collected.quarantined.first)
    #expect(entry.reason == .recordTooLarge)
    #expect(entry.position.line == 1)
    #expect(
      entry.detail.hasPrefix(
        "the line is \(opening.count + 100 * (1 << 20) + 3) bytes; the limit is 33554432 bytes"))
    #expect(!entry.excerpt.contains("AAAA"))
  }

  @Test("a limit below the read size still holds for a line that arrives in one read")
  func smallLimit() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let path = directory.appendingPathComponent("small.ndjson")
    let long =
      #"{"account_id": "long", "response": {"status": 0, "latest_receipt": ""#
      + String(repeating: "A", count: 500) + "\"}}"
    let short = #"{"account_id": "short", "response": {"status": 0}}"#
    try Data((long + "\n" + short + "\n").utf8).write(to: path)
    let collected = try Collected([path.path], options: .init(maximumRecordBytes: 200))
    #expect(collected.records.map(\.accountId) == ["short"])
    let entry = try #require(collected.quarantined.first)
    #expect(entry.reason == .recordTooLarge)
    #expect(entry.detail.hasPrefix("the line is \(long.utf8.count) bytes; the limit is 200 bytes"))
  }

  @Test("reads lines across buffer boundaries, with CRLF and without a final newline")
  func lineBoundaries() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let path = directory.appendingPathComponent("lines.ndjson")
    var text = ""
    for index in 0..<2000 {
      text +=
        #"{"account_id": "a\#(index)", "response": {"status": 0, "pad": "\#(String(repeating: "x", count: index % 700))"}}"#
      text += index % 3 == 0 ? "\r\n" : "\n"
    }
    text += #"{"account_id": "last", "response": {"status": 0}}"#
    try Data(text.utf8).write(to: path)
    let collected = try Collected([path.path])
    #expect(collected.quarantined.isEmpty)
    #expect(collected.records.count == 2001)
    #expect(collected.records.last?.accountId == "last")
    #expect(collected.records[1500].position.line == 1501)
  }

  @Test("reads seed CSV files by header name, and names spreadsheet damage")
  func csvSeeds() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let csv = """
      Environment,Original_Transaction_ID,account_id,note
      Sandbox,1000000000000001,acct-1,first
      ,1000000000000002,"acct-2, with comma",
      Production,1.00000000000000E+15,acct-3,excel
      Production,,acct-4,
      Production,abc,acct-5,
      Production,1000000000000006
      Production,1000000000000007,"unterminated
      """
    try Data(csv.utf8).write(to: directory.appendingPathComponent("seeds.csv"))
    try Data("id,account\n1,2\n".utf8).write(to: directory.appendingPathComponent("other.csv"))
    let collected = try Collected([directory.path])
    #expect(collected.records.map(\.accountId) == ["acct-1", "acct-2, with comma"])
    #expect(collected.records.first?.environment == .sandbox)
    #expect(collected.records.first?.originalTransactionIds == ["1000000000000001"])
    let details = collected.quarantined.map(\.detail)
    #expect(details.contains { $0.contains("rewritten by a spreadsheet") })
    #expect(details.contains("original_transaction_id is empty"))
    #expect(details.contains("original_transaction_id 'abc' is not a string of digits"))
    #expect(details.contains("the row has 2 fields; the header needs at least 3"))
    #expect(details.contains("unterminated quoted field (the file ends inside it)"))
    #expect(collected.quarantined.filter { $0.reason == .badCSVHeader }.count == 1)
    #expect(collected.quarantined.filter { $0.reason == .malformedTransactionId }.count == 3)
  }

  @Test("quoted line breaks, byte-order marks and damaged ids are read as their writers meant")
  func misreadInputs() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    // RFC 4180: a quoted field may hold a line break; the row goes on, and no account is
    // made of its second half.
    let csv =
      "account_id,original_transaction_id,note\n"
      + "acct-1,1000000000000001,\"first line\nnext line\"\n"
      + "\"acct\n2\",1000000000000002,\"a \"\"quoted\"\"\nword\"\n"
      + "acct-3,1000000000000003,\n"
    try Data(csv.utf8).write(to: directory.appendingPathComponent("seeds.csv"))
    let bom = "\u{FEFF}"
    try Data((bom + #"{"account_id":"b1","response":{"status":21010}}"# + "\n").utf8)
      .write(to: directory.appendingPathComponent("bom.ndjson"))
    try Data((bom + #"{"account_id":"b2","response":{"status":21010}}"#).utf8)
      .write(to: directory.appendingPathComponent("bom.json"))
    let damaged = [#""1.00000071234568E+15""#, #""-5""#, "12.5", #""123456789012345678901""#]
    let lines = damaged.enumerated().map { index, id in
      #"{"account_id":"d\#(index)","response":{"status":0,"latest_receipt_info":"#
        + #"[{"original_transaction_id":\#(id),"product_id":"p"}]}}"#
    }
    try Data(lines.joined(separator: "\n").utf8)
      .write(to: directory.appendingPathComponent("damaged.ndjson"))

    let collected = try Collected([directory.path])
    // A damaged id is set aside, never sent to Apple; the rest of its response is kept.
    #expect(
      collected.records.map(\.accountId).sorted() == [
        "acct\n2", "acct-1", "acct-3", "b1", "b2", "d0", "d1", "d2", "d3",
      ])
    #expect(collected.records.first { $0.accountId == "acct-3" }?.position.line == 7)
    let damagedRecords = collected.records.filter { $0.accountId.hasPrefix("d") }
    #expect(damagedRecords.allSatisfy { $0.originalTransactionIds.isEmpty && $0.isPartial })
    let malformed = damagedRecords.flatMap(\.setAside)
    #expect(malformed.allSatisfy { $0.reason == .malformedTransactionId })
    #expect(
      malformed.map(\.path).allSatisfy {
        $0 == "response.latest_receipt_info[0].original_transaction_id"
      })
    #expect(malformed.count == 4, "\(malformed)")
    let details = malformed.map(\.detail)
    #expect(
      details.contains { $0.contains("'1.00000071234568E+15' looks like a number rewritten") })
    #expect(details.contains { $0.contains("'-5' is negative") })
    #expect(details.contains { $0.contains("'12.5' looks like a number rewritten") })
    #expect(details.contains { $0.contains("has 21 digits") })
    #expect(collected.quarantined.isEmpty)
  }

  @Test("a forced format overrides extensions")
  func forcedFormat() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let path = directory.appendingPathComponent("export.txt")
    try Data(#"{"account_id": "x", "response": {"status": 0}}"#.utf8).write(to: path)
    let collected = try Collected([path.path], options: .init(forcedFormat: .ndjson))
    #expect(collected.records.map(\.accountId) == ["x"])
  }
}
