import Chronology
import CompactEncoding
import Foundation
import LegacyReceipts
import Testing

/// The compact copy `compare` reads instead of a stored response must decode to exactly the
/// response the verbatim bytes decode to. (Checks of our code against our own decoder: the
/// verbatim path is the reference.)
@Suite("Compact copies of decoded responses")
struct CompactResponseTests {
  /// Every usable response of the repository's legacy files, decoded from its verbatim bytes.
  static func repositoryResponses() throws -> [(bytes: Int, response: VerifyReceiptResponse)] {
    var found: [(Int, VerifyReceiptResponse)] = []
    for file in ["sample/receipts.ndjson", "handmade/cases.ndjson"] {
      let text = try String(
        contentsOf: legacyDirectory.appendingPathComponent(file), encoding: .utf8)
      for line in text.split(separator: "\n") {
        let bytes = Array(line.utf8)
        // Some hand-made cases are malformed on purpose; they never reach the store.
        guard let response = try? StoredRecordDecoder.response(of: bytes, format: .ndjson)
        else { continue }
        found.append((bytes.count, response))
      }
    }
    let responses = legacyDirectory.appendingPathComponent("handmade/responses")
    for name in try FileManager.default.contentsOfDirectory(atPath: responses.path).sorted() {
      let bytes = Array(try Data(contentsOf: responses.appendingPathComponent(name)))
      if let response = try? StoredRecordDecoder.response(of: bytes, format: .json) {
        found.append((bytes.count, response))
      }
    }
    return found
  }

  @Test(
    "every response of the legacy sample and hand-made cases reads back equal, in under a fifth of the bytes"
  )
  func repositoryResponsesRoundTrip() throws {
    let responses = try Self.repositoryResponses()
    #expect(responses.count > 300)
    var verbatimBytes = 0
    var compactBytes = 0
    for (size, response) in responses {
      let compact = CompactResponse.encode(response)
      #expect(try CompactResponse.decode(compact) == response)
      verbatimBytes += size
      compactBytes += compact.count
    }
    #expect(compactBytes * 5 < verbatimBytes, "\(compactBytes) of \(verbatimBytes) bytes")
  }

  @Test("every field, open enumerations, extreme numbers and non-ASCII text read back equal")
  func everyField() throws {
    var response = VerifyReceiptResponse(status: ReceiptStatus(rawValue: -21_006))
    response.environment = .other("Staging ✓")
    response.isRetryable = false
    response.exception = "com.apple.jingle.mzfairplay.validation.FairPlayException"
    response.hadLatestReceipt = true
    response.shape = .iOS6
    var receipt = AppReceipt()
    receipt.receiptType = "ProductionSandbox"
    receipt.bundleId = "com.example.app"
    receipt.applicationVersion = "1.2.3"
    receipt.originalApplicationVersion = "1.0"
    receipt.adamId = .max
    receipt.appItemId = .min
    receipt.downloadId = 0
    receipt.versionExternalIdentifier = -1
    receipt.receiptCreationDate = Timestamp(millisecondsSince1970: -86_400_000)
    receipt.requestDate = Timestamp(millisecondsSince1970: 1_718_452_800_000)
    receipt.originalPurchaseDate = Timestamp(millisecondsSince1970: .max)
    receipt.expirationDate = Timestamp(millisecondsSince1970: .min)
    receipt.preorderDate = Timestamp(millisecondsSince1970: 1)
    var transaction = LegacyTransaction(origin: .latestExpiredReceiptInfo)
    transaction.transactionId = "1000000000000001"
    transaction.originalTransactionId = "1000000000000001"
    transaction.webOrderLineItemId = "1000000000000002"
    transaction.productId = "com.example.pro.monthly"
    transaction.subscriptionGroupIdentifier = "21000001"
    transaction.quantity = 2
    transaction.purchaseDate = Timestamp(millisecondsSince1970: 1_700_000_000_000)
    transaction.originalPurchaseDate = Timestamp(millisecondsSince1970: 1_690_000_000_000)
    transaction.expiresDate = Timestamp(millisecondsSince1970: 1_702_592_000_000)
    transaction.cancellationDate = Timestamp(millisecondsSince1970: 1_701_000_000_000)
    transaction.cancellationReason = 1
    transaction.isTrialPeriod = true
    transaction.isInIntroOfferPeriod = false
    transaction.isUpgraded = true
    transaction.ownershipType = .other("GIFTED")
    transaction.offerCodeRefName = "SPRING"
    transaction.promotionalOfferId = "winback"
    transaction.appAccountToken = "7E3FB20B-4CDB-47CC-936D-99D65F608138"
    var shared = transaction
    shared.origin = .inApp
    shared.ownershipType = .familyShared
    shared.transactionId = ""
    var iOS6 = LegacyTransaction(origin: .iOS6Receipt)
    iOS6.ownershipType = .purchased
    receipt.inApp = [shared, iOS6, LegacyTransaction(origin: .latestReceiptInfo)]
    response.receipt = receipt
    response.latestReceiptInfo = [transaction, transaction]
    var renewal = LegacyRenewalInfo()
    renewal.originalTransactionId = "1000000000000001"
    renewal.productId = "com.example.pro.monthly"
    renewal.autoRenewProductId = "com.example.pro.yearly"
    renewal.autoRenewStatus = false
    renewal.expirationIntent = ExpirationIntent(rawValue: 99)
    renewal.isInBillingRetryPeriod = true
    renewal.gracePeriodExpiresDate = Timestamp(millisecondsSince1970: 1_702_600_000_000)
    renewal.priceConsentStatus = 0
    renewal.offerCodeRefName = "ÆØÅ"
    renewal.promotionalOfferId = "🎁"
    response.pendingRenewalInfo = [renewal, LegacyRenewalInfo()]

    #expect(try CompactResponse.decode(CompactResponse.encode(response)) == response)
    let sandbox = VerifyReceiptResponse(status: .valid)
    var production = sandbox
    production.environment = .production
    for value in [sandbox, production] {
      #expect(try CompactResponse.decode(CompactResponse.encode(value)) == value)
    }
  }

  @Test(
    "every truncation, a trailing byte, another version and flipped bytes are refused, never trapped on"
  )
  func damagedBytes() throws {
    let (_, response) = try #require(
      try Self.repositoryResponses().max {
        $0.response.latestReceiptInfo.count < $1.response.latestReceiptInfo.count
      })
    let bytes = CompactResponse.encode(response)
    for length in 0..<bytes.count {
      #expect(throws: CompactDecodingError.self) {
        try CompactResponse.decode(Array(bytes[..<length]))
      }
    }
    #expect(throws: CompactDecodingError.self) { try CompactResponse.decode(bytes + [0]) }
    var otherVersion = bytes
    otherVersion[0] = UInt8(CompactResponse.formatVersion + 1)
    let error = #expect(throws: CompactDecodingError.self) {
      try CompactResponse.decode(otherVersion)
    }
    #expect(error?.description.contains("format version") == true)
    // Any single byte changed either still reads (as some response) or is refused.
    for offset in bytes.indices {
      for value: UInt8 in [0x00, 0x7F, 0x80, 0xFF] {
        var changed = bytes
        changed[offset] = value
        _ = try? CompactResponse.decode(changed)
      }
    }
  }

  @Test(
    "a string number beyond those read, an over-long integer and a mask with unknown fields are refused"
  )
  func craftedBytes() {
    let version = UInt8(CompactResponse.formatVersion)
    let cases: [(bytes: [UInt8], reason: String)] = [
      // status 0, response mask: exception present, then string number 5 of none
      ([version, 0, 0b100, 11], "string number 5"),
      // status as an 11-byte integer
      ([version] + Array(repeating: 0xFF, count: 10) + [1], "longer than 64 bits"),
      // a response mask with bit 6 set (the group has 6 fields)
      ([version, 0, 0b100_0000, 0, 0], "beyond the 6"),
      // a list of 200 transactions with 2 bytes left
      ([version, 0, 0, 200, 1, 0], "count of 200"),
      // a string of invalid UTF-8
      ([version, 0, 0b100, 2, 0xC3, 0, 0], "not UTF-8"),
    ]
    for (bytes, reason) in cases {
      let error = #expect(throws: CompactDecodingError.self) { try CompactResponse.decode(bytes) }
      #expect(error?.reason.contains(reason) == true, "\(bytes): \(String(describing: error))")
    }
  }
}
