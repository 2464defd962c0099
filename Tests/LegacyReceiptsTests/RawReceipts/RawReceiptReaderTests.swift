import Chronology
import CryptoSupport
import Foundation
import LegacyReceipts
import Testing

@Suite("RawReceiptReader")
struct RawReceiptReaderTests {
  typealias Fixtures = ReceiptFixtures

  @Test("seeds from an app receipt: every original id, bundle id, creation date, environment")
  func appReceiptSeeds() throws {
    let text = Fixtures.base64(
      try Fixtures.signed(Fixtures.receipt(purchases: 5), .indefiniteLengthBER))
    let seeds = try RawReceiptReader(verifier: Fixtures.verifier).seeds(fromBase64: text)
    #expect(
      seeds
        == RawReceiptSeeds(
          format: .appReceipt,
          originalTransactionIds: ["1000000700000000", "1000000700000001"],
          transactionIds: (0..<5).map { String(1_000_000_800_000_000 + $0) },
          bundleId: "com.example.app", creationDate: Fixtures.created, environment: .sandbox,
          signature: .valid(signer: Fixtures.chain.leaf.certificate.subject)))
  }

  @Test("seeds from an iOS 6 transaction receipt, whose signature is never checked")
  func transactionReceiptSeeds() throws {
    let text = TransactionReceiptBuilder.base64Receipt(
      for: TransactionReceiptReaderTests.transaction)
    let seeds = try RawReceiptReader(verifier: Fixtures.verifier).seeds(fromBase64: text)
    #expect(
      seeds
        == RawReceiptSeeds(
          format: .transactionReceipt, originalTransactionIds: ["1000000046170000"],
          transactionIds: ["1000000046178817"], bundleId: "com.example.app", creationDate: nil,
          environment: .sandbox, signature: .notChecked(.transactionReceipt)))
  }

  @Test(
    "the receipt type names the environment",
    arguments: [
      ("Production", ReceiptEnvironment.production), ("ProductionVPP", .production),
      ("ProductionSandbox", .sandbox), ("ProductionVPPSandbox", .sandbox),
      ("Xcode", .other("Xcode")),
    ])
  func environments(type: String, environment: ReceiptEnvironment) throws {
    var receipt = Fixtures.receipt(purchases: 1)
    receipt.receiptType = type
    let text = Fixtures.base64(try Fixtures.signed(receipt, .der))
    #expect(try RawReceiptReader().seeds(fromBase64: text).environment == environment)
  }

  @Test("base64 wrapped in lines, unpadded, or in the URL-safe alphabet reads the same")
  func base64Forms() throws {
    let bytes = try Fixtures.signed(Fixtures.receipt(purchases: 2), .der)
    let expected = try AppReceiptReader.read(bytes)
    let data = Data(bytes)
    let forms = [
      data.base64EncodedString(options: [
        .lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed,
      ]),
      data.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed]),
      data.base64EncodedString().replacingOccurrences(of: "=", with: ""),
      data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_"),
    ]
    for form in forms {
      #expect(try AppReceiptReader.read(base64: form) == expected)
    }
  }

  /// Text that is not a readable receipt, and the exact error.
  struct BadText: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    var error: RawReceiptError
    var testDescription: String { name }
  }

  static let badTexts: [BadText] = [
    .init(name: "empty", text: "", error: .emptyInput),
    .init(name: "only line breaks", text: "\r\n\n", error: .emptyInput),
    .init(
      name: "a space where '+' was", text: "MIIT QwYJ",
      error: .invalidBase64Character(.receipt, offset: 4, byte: 0x20)),
    .init(
      name: "a character outside base64", text: "MIITQw*J",
      error: .invalidBase64Character(.receipt, offset: 6, byte: UInt8(ascii: "*"))),
    .init(
      name: "padding in the middle", text: "MIE=QwYJ",
      error: .invalidBase64Character(.receipt, offset: 3, byte: UInt8(ascii: "="))),
    .init(
      name: "too much padding", text: "MIIT Qw===".replacingOccurrences(of: " ", with: ""),
      error: .invalidBase64Character(.receipt, offset: 8, byte: UInt8(ascii: "="))),
    .init(
      name: "an impossible length", text: "MIITQ",
      error: .invalidBase64Length(.receipt, characters: 5)),
    .init(
      name: "neither format", text: Data("hello".utf8).base64EncodedString(),
      error: .unrecognizedFormat(firstByte: UInt8(ascii: "h"))),
    .init(
      name: "an XML property list", text: Data("  <?xml version".utf8).base64EncodedString(),
      error: .unrecognizedFormat(firstByte: UInt8(ascii: "<"))),
  ]

  @Test("text that is not a receipt gets a precise error", arguments: badTexts)
  func badText(_ bad: BadText) {
    #expect(throws: bad.error) { try RawReceiptReader().read(base64: bad.text) }
  }

  @Test("the messages say what to do where there is something to do")
  func hints() {
    let space = RawReceiptError.invalidBase64Character(.receipt, offset: 4, byte: 0x20)
    #expect(space.description.contains("URL form decoding"))
    #expect(
      RawReceiptError.unrecognizedFormat(firstByte: UInt8(ascii: "<")).description.contains(
        "XML"))
    #expect(
      RawReceiptError.invalidBase64Length(.purchaseInfo, characters: 5).description
        == "the purchase-info is not base64: 5 characters cannot be a base64 encoding; the text "
        + "may be cut short")
  }

  @Test("a property list text with leading whitespace is still an iOS 6 receipt")
  func leadingWhitespace() throws {
    let inner = Data(
      #"{ "transaction-id" = "5"; "original-transaction-id" = "4"; }"#.utf8
    ).base64EncodedString()
    let text = Data("\n  { \"purchase-info\" = \"\(inner)\"; }".utf8).base64EncodedString()
    #expect(try RawReceiptReader().seeds(fromBase64: text).originalTransactionIds == ["4"])
  }
}
