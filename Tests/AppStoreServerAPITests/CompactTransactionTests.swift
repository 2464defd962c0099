import AppStoreServerAPI
import Chronology
import CompactEncoding
import JSON
import Testing

/// The compact copy of a transaction reads back equal to the transaction it was made from, and
/// damaged bytes are refused, never trapped on. The transactions come from Apple's signed test
/// vector (Apple's data, this project's decoder) and from this project's samples; both sides of
/// each round trip are this project's code.
@Suite("Compact transactions")
struct CompactTransactionTests {
  /// Every member set, the open enumerations both known and unknown, commitment included.
  static func everyMember() -> [JWSTransaction] {
    var full = Sample.transaction()
    full.commitmentInfo = TransactionCommitmentInfo(
      billingPeriodNumber: 3,
      commitmentExpiresDate: Timestamp(millisecondsSince1970: 1_709_000_000_000),
      commitmentPrice: 119_880, totalBillingPeriods: 12)
    full.billingPlanType = BillingPlanType(rawValue: "MONTHLY")
    var unknown = full
    unknown.type = TransactionType(rawValue: "Future Type")
    unknown.inAppOwnershipType = InAppOwnershipType(rawValue: "SOMETHING_NEW")
    unknown.revocationReason = RevocationReason(rawValue: 7)
    unknown.revocationType = RevocationType(rawValue: "REFUND_NEW")
    unknown.offerType = OfferType(rawValue: -3)
    unknown.offerDiscountType = OfferDiscountType(rawValue: "NEW_DISCOUNT")
    unknown.environment = AppStoreEnvironment(rawValue: "Staging")
    unknown.transactionReason = TransactionReason(rawValue: "GIFT")
    unknown.commitmentInfo = TransactionCommitmentInfo()
    unknown.price = -1
    unknown.quantity = Int.max
    unknown.purchaseDate = Timestamp(millisecondsSince1970: -1)
    // One string repeated across members: written once, then referred to by number.
    unknown.originalTransactionId = unknown.transactionId
    unknown.offerIdentifier = "é 🙂 \u{0}"
    return [JWSTransaction(), full, unknown, Sample.transaction(environment: .sandbox)]
  }

  @Test("every member, known and unknown values, read back equal")
  func roundTrip() throws {
    for transaction in Self.everyMember() {
      #expect(try CompactTransaction.decode(CompactTransaction.encode(transaction)) == transaction)
    }
  }

  @Test("Apple's signed transaction vector: the copy reads back as its payload decodes")
  func appleVector() throws {
    let sandbox = try AppleTestVectorTests.verifier(.sandbox)
    let verified = try sandbox.verifyTransaction(AppleTestVectorTests.vector("transactionInfo"))
    let bytes = CompactTransaction.encode(verified.payload)
    #expect(try CompactTransaction.decode(bytes) == verified.payload)
    // Far smaller than the signed value it stands in for.
    #expect(bytes.count * 4 < verified.jws.utf8.count)
  }

  @Test("the copy equals a decoding of the JSON it was written as")
  func sameAsJSON() throws {
    for transaction in Self.everyMember() {
      var writer = JSONWriter()
      transaction.write(to: &writer)
      let fromJSON = try JWSTransaction.decode(json: writer.bytes)
      #expect(try CompactTransaction.decode(CompactTransaction.encode(fromJSON)) == fromJSON)
    }
  }

  @Test(
    "every truncation, a trailing byte, another version and changed bytes are refused, never trapped on"
  )
  func damagedBytes() {
    let bytes = CompactTransaction.encode(Self.everyMember()[1])
    for length in 0..<bytes.count {
      #expect(throws: CompactDecodingError.self) {
        try CompactTransaction.decode(Array(bytes[..<length]))
      }
    }
    #expect(throws: CompactDecodingError.self) { try CompactTransaction.decode(bytes + [0]) }
    var otherVersion = bytes
    otherVersion[0] = UInt8(CompactTransaction.formatVersion + 1)
    let error = #expect(throws: CompactDecodingError.self) {
      try CompactTransaction.decode(otherVersion)
    }
    #expect(error?.description.contains("format version") == true)
    for offset in bytes.indices {
      for value: UInt8 in [0x00, 0x7F, 0x80, 0xFF] {
        var changed = bytes
        changed[offset] = value
        _ = try? CompactTransaction.decode(changed)
      }
    }
  }

  @Test(
    "a mask naming a 33rd member, a commitment with a fifth and a byte too many are refused with the reason"
  )
  func craftedBytes() {
    let version = UInt8(CompactTransaction.formatVersion)
    let cases: [(bytes: [UInt8], reason: String)] = [
      // bit 32 of the transaction's mask
      ([version, 0x80, 0x80, 0x80, 0x80, 0x10], "beyond the 32"),
      // only a quantity (bit 9) of 1, then a byte too many
      ([version, 0x80, 0x04, 0x02, 0], "trail"),
      // a commitment (bit 31) whose mask names a fifth member
      ([version, 0x80, 0x80, 0x80, 0x80, 0x08, 0x10], "beyond the 4"),
    ]
    for (bytes, reason) in cases {
      let error = #expect(throws: CompactDecodingError.self) {
        try CompactTransaction.decode(bytes)
      }
      #expect(error?.reason.contains(reason) == true, "\(bytes): \(String(describing: error))")
    }
  }
}
