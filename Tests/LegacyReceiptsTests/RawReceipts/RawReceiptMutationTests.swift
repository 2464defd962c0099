import ASN1
import Foundation
import JSON
import LegacyReceipts
import Testing

/// The raw receipts of the generated sample and of the hand-made cases, damaged a few thousand
/// ways chosen by a seeded generator: every damaged receipt gets a verdict — a receipt, or an
/// error that says what is wrong — and none crashes the reader. The libFuzzer harness
/// (`Scripts/fuzz raw-receipt`) searches further; this test repeats the same mutations on every
/// run, with no clock and no system randomness.
@Suite("Raw receipts under seeded mutation")
struct RawReceiptMutationTests {
  /// The `receipt_data` of every record of `Legacy/sample/receipts.ndjson` and
  /// `Legacy/handmade/cases.ndjson` that has one: real app receipts as the simulator signs
  /// them, in BER and DER.
  static func sampleReceipts() throws -> [[UInt8]] {
    var receipts: [[UInt8]] = []
    for file in ["sample/receipts.ndjson", "handmade/cases.ndjson"] {
      let text = try String(
        contentsOf: legacyDirectory.appendingPathComponent(file), encoding: .utf8)
      for line in text.split(separator: "\n") where line.contains("\"receipt_data\"") {
        let record = try JSONValue(parsing: line.utf8)
        let base64 = try #require(record["receipt_data"]?.stringValue)
        receipts.append(Array(try #require(Data(base64Encoded: base64))))
      }
    }
    return receipts
  }

  /// The sample receipts and an iOS 6 transaction receipt (its property list text).
  static func originals() throws -> [[UInt8]] {
    let transactionReceipt = try #require(
      Data(
        base64Encoded: TransactionReceiptBuilder.base64Receipt(
          for: TransactionReceiptReaderTests.transaction)))
    return try sampleReceipts() + [Array(transactionReceipt)]
  }

  @Test("every seeded mutation of the sample receipts is read or refused with a reason")
  func everyMutationHasAVerdict() throws {
    let originals = try Self.originals()
    #expect(originals.count >= 10, "the sample lost its raw receipts")
    var random = ReceiptFixtures.SeededGenerator(state: 0x6D75_7461_7465)
    let mutations = (0..<4_000).map { round in
      Self.mutate(originals[round % originals.count], using: &random)
    }
    let verdicts = Self.verdicts(of: mutations)
    #expect(verdicts.read + verdicts.refused == mutations.count)
    #expect(verdicts.undescribed == 0, "errors without a description")
    // Both outcomes must occur, or the mutations do not exercise the reader.
    #expect(verdicts.read > 100, "only \(verdicts.read) mutated receipts read")
    #expect(verdicts.refused > 1_000, "only \(verdicts.refused) mutated receipts refused")
  }

  /// Lengths near Int.max once trapped ASN1Reader's truncation arithmetic (Fuzz/Regressions/asn1
  /// and raw-receipt); at every length octet of a real receipt they are refused.
  @Test("lengths declared near Int.max at every length octet are refused with a reason")
  func lengthsNearIntMax() throws {
    var mutations: [[UInt8]] = []
    for original in try Self.sampleReceipts().prefix(3) {
      for offset in Self.lengthOctetOffsets(in: original) {
        mutations.append(
          Self.replacingLength(
            at: offset, in: original, with: [0x88, 0x7F] + [UInt8](repeating: 0xFF, count: 7)))
      }
    }
    let verdicts = Self.verdicts(of: mutations)
    #expect(verdicts.read + verdicts.refused == mutations.count)
    #expect(verdicts.undescribed == 0, "errors without a description")
  }

  @Test("the minimized inputs of Fuzz/Regressions/asn1 and raw-receipt are refused with a reason")
  func fuzzFindings() throws {
    // Fuzz/Regressions/raw-receipt/app-receipt-length-near-int-max: a ContentInfo whose length
    // is Int.max.
    let appReceipt: [UInt8] = [0x30, 0x88, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    #expect(
      throws: RawReceiptError.malformedEnvelope(.truncated(offset: 0, needed: .max, available: 10))
    ) {
      try RawReceiptReader().read(appReceipt)
    }
    // Fuzz/Regressions/asn1/top-level-length-near-int-max: a segmented OCTET STRING whose length
    // is 3 short of Int.max.
    let element: [UInt8] = [0x24, 0x88, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFC]
    var reader = ASN1Reader(element)
    #expect(throws: ASN1Error.truncated(offset: 0, needed: .max, available: 10)) {
      try reader.next()
    }
  }

  // MARK: - Reading

  /// How many inputs read, how many were refused, and how many refusals gave no reason.
  struct Verdicts {
    var read = 0
    var refused = 0
    var undescribed = 0
  }

  /// Reads each input with the raw receipt reader ingest uses.
  static func verdicts(of inputs: [[UInt8]]) -> Verdicts {
    var verdicts = Verdicts()
    let reader = RawReceiptReader()
    for bytes in inputs {
      do {
        _ = try reader.read(bytes).seeds
        verdicts.read += 1
      } catch {
        verdicts.refused += 1
        if error.description.isEmpty { verdicts.undescribed += 1 }
      }
    }
    return verdicts
  }

  // MARK: - Mutations

  /// Replacements for a length field: long forms claiming 4 GB and more than any input holds,
  /// too many or reserved length octets, the indefinite form, and short lengths.
  static let lengthFields: [[UInt8]] = [
    [0x84, 0xFF, 0xFF, 0xFF, 0xFF], [0x88] + [UInt8](repeating: 0xFF, count: 8),
    [0x89] + [UInt8](repeating: 0xFF, count: 9), [0xFF], [0x80], [0x81, 0x00], [0x82, 0xFF, 0xFF],
    [0x00], [0x7F],
  ]

  /// Damages `bytes` once: a flipped bit, inserted or deleted bytes, a replaced length field, or
  /// a truncation.
  static func mutate(
    _ bytes: [UInt8], using random: inout ReceiptFixtures.SeededGenerator
  ) -> [UInt8] {
    var bytes = bytes
    let position = Int.random(in: 0..<bytes.count, using: &random)
    switch Int.random(in: 0..<5, using: &random) {
    case 0:
      bytes[position] ^= 1 << UInt8.random(in: 0..<8, using: &random)
    case 1:
      let count = Int.random(in: 1...8, using: &random)
      bytes.insert(
        contentsOf: (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) },
        at: position)
    case 2:
      bytes.removeSubrange(
        position..<min(bytes.count, position + Int.random(in: 1...16, using: &random)))
    case 3:
      // Lengths are where BER readers go wrong: aim at a real length octet.
      let offsets = lengthOctetOffsets(in: bytes)
      guard let offset = offsets.randomElement(using: &random) else { return bytes }
      let field = lengthFields.randomElement(using: &random)!
      return replacingLength(at: offset, in: bytes, with: field)
    default:
      bytes.removeSubrange(position...)
    }
    return bytes
  }

  /// `bytes` with the length field starting at `offset` replaced by `field`.
  static func replacingLength(at offset: Int, in bytes: [UInt8], with field: [UInt8]) -> [UInt8] {
    var bytes = bytes
    let first = bytes[offset]
    let octets = first > 0x80 ? Int(first & 0x7F) : 0
    bytes.replaceSubrange(offset..<min(bytes.count, offset + 1 + octets), with: field)
    return bytes
  }

  /// The offsets of the first length octet of every element the reader can reach, encapsulated
  /// encodings included; an app receipt has a few hundred. Empty for input that is not BER.
  static func lengthOctetOffsets(in bytes: [UInt8]) -> [Int] {
    var offsets: [Int] = []
    var reader = ASN1Reader(bytes)
    collectLengthOctets(&reader, into: &offsets)
    return offsets
  }

  private static func collectLengthOctets(_ reader: inout ASN1Reader, into offsets: inout [Int]) {
    while let element = try? reader.next() {
      var index = element.startIndex + 1
      if reader.bytes[element.startIndex] & 0x1F == 0x1F {
        // A high tag number continues while the top bit is set.
        while reader.bytes[index] & 0x80 != 0 { index += 1 }
        index += 1
      }
      offsets.append(index)
      if element.tag.isConstructed, var children = try? reader.children(of: element) {
        collectLengthOctets(&children, into: &offsets)
      } else if element.tag == .octetString, var inner = try? reader.encapsulated(in: element) {
        // A primitive OCTET STRING is read in place, so offsets inside it are the input's.
        collectLengthOctets(&inner, into: &offsets)
      }
    }
  }
}
