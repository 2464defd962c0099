import CryptoSupport
import Foundation
import Testing

@testable import LegacyReceipts

/// Thousands of damaged receipts: whatever the damage, reading ends with a receipt or a
/// ``RawReceiptError`` — never a crash, a hang or another error — and what it returns holds
/// together.
@Suite("Raw receipts under mutation")
struct RawReceiptFuzzTests {
  typealias Fixtures = ReceiptFixtures

  /// The well-formed receipts the mutations start from.
  static func corpus() throws -> [[UInt8]] {
    [
      try Fixtures.signed(Fixtures.receipt(purchases: 3), .der),
      try Fixtures.signed(Fixtures.receipt(purchases: 3), .indefiniteLengthBER),
      Fixtures.envelope(
        payload: try AppReceiptBuilder.payload(
          for: Fixtures.receipt(purchases: 2), lengthForm: .indefinite),
        lengthForm: .indefinite, segmentLength: 50),
      Array(
        try #require(
          Data(
            base64Encoded: TransactionReceiptBuilder.base64Receipt(
              for: TransactionReceiptReaderTests.transaction)))),
    ]
  }

  /// Damages `bytes` in one of the ways storage and transport damage data.
  static func mutate(_ bytes: [UInt8], using random: inout ReceiptFixtures.SeededGenerator)
    -> [UInt8]
  {
    var bytes = bytes
    guard !bytes.isEmpty else { return [UInt8.random(in: 0...255, using: &random)] }
    let position = Int.random(in: 0..<bytes.count, using: &random)
    switch Int.random(in: 0..<7, using: &random) {
    case 0:
      bytes[position] = UInt8.random(in: 0...255, using: &random)
    case 1:
      // Lengths and markers are where BER readers go wrong.
      bytes[position] = [0x00, 0x80, 0x81, 0x84, 0x88, 0xFF][Int.random(in: 0..<6, using: &random)]
    case 2:
      bytes.removeSubrange(position...)
    case 3:
      bytes.insert(
        contentsOf: (0..<Int.random(in: 1...8, using: &random)).map { _ in
          UInt8.random(in: 0...255, using: &random)
        }, at: position)
    case 4:
      let end = min(bytes.count, position + Int.random(in: 1...64, using: &random))
      bytes.removeSubrange(position..<end)
    case 5:
      let end = min(bytes.count, position + Int.random(in: 1...64, using: &random))
      let copy = Array(bytes[position..<end])
      bytes.insert(contentsOf: copy, at: Int.random(in: 0...bytes.count, using: &random))
    default:
      bytes[position] ^= 1 << UInt8.random(in: 0..<8, using: &random)
    }
    return bytes
  }

  @Test("thousands of mutated receipts read or fail cleanly", .timeLimit(.minutes(1)))
  func mutations() throws {
    let corpus = try Self.corpus()
    var random = ReceiptFixtures.SeededGenerator(state: 0x5EED)
    var read = 0
    var refused = 0
    for round in 0..<6_000 {
      var bytes = corpus[round % corpus.count]
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        bytes = Self.mutate(bytes, using: &random)
      }
      do {
        let receipt = try RawReceiptReader().read(base64: Fixtures.base64(bytes))
        read += 1
        let seeds = receipt.seeds
        #expect(Set(seeds.originalTransactionIds).count == seeds.originalTransactionIds.count)
        #expect(
          seeds.originalTransactionIds.allSatisfy { id in
            !id.isEmpty && id.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
          })
      } catch {
        refused += 1
        #expect(!error.description.isEmpty)
      }
    }
    // Both outcomes must occur, or the mutations are not exercising the reader.
    #expect(read > 100, "only \(read) mutated receipts read")
    #expect(refused > 1_000, "only \(refused) mutated receipts refused")
  }

  @Test(
    "the fast path for common purchases and the general reader agree on every mutated receipt",
    .timeLimit(.minutes(1)))
  func fastPathAgrees() throws {
    let corpus = try Self.corpus().filter { $0.first == 0x30 }
    var random = ReceiptFixtures.SeededGenerator(state: 0xFA57)
    var agreedOnReceipts = 0
    for round in 0..<3_000 {
      let bytes = Self.mutate(corpus[round % corpus.count], using: &random)
      let fast = Result { () throws(RawReceiptError) in try AppReceiptReader.read(bytes) }
      let general = Result { () throws(RawReceiptError) in
        try AppReceiptReader.readWithoutFastPath(bytes)
      }
      #expect(fast == general, "round \(round)")
      if case .success = fast { agreedOnReceipts += 1 }
    }
    #expect(agreedOnReceipts > 100, "only \(agreedOnReceipts) mutated receipts read")
  }

  @Test("mutated receipts never crash the signature check", .timeLimit(.minutes(1)))
  func signatureMutations() throws {
    let corpus = Array(try Self.corpus().prefix(2))
    var random = ReceiptFixtures.SeededGenerator(state: 0xC0FFEE)
    let reader = RawReceiptReader(verifier: Fixtures.verifier)
    var verdicts: [String: Int] = [:]
    for round in 0..<300 {
      let bytes = Self.mutate(corpus[round % corpus.count], using: &random)
      do {
        let receipt = try reader.read(base64: Fixtures.base64(bytes))
        verdicts[receipt.signature.verdict, default: 0] += 1
      } catch {
        // Unreadable receipts never reach the signature check; the test above covers them.
        verdicts["unreadable", default: 0] += 1
      }
    }
    #expect(verdicts["invalid", default: 0] > 0, "\(verdicts)")
  }
}
