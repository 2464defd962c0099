import Chronology
import Foundation
import LegacyReceipts
import TestDirectories
import Testing

@Suite("TransactionReceiptReader")
struct TransactionReceiptReaderTests {
  static let transaction = TransactionReceipt(
    transactionId: "1000000046178817", originalTransactionId: "1000000046170000",
    productId: "com.example.monthly", bundleId: "com.example.app", bundleVersion: "2.1",
    itemId: "521129812", quantity: 1,
    purchaseDate: Timestamp(millisecondsSince1970: 1_335_798_355_868),
    originalPurchaseDate: Timestamp(millisecondsSince1970: 1_335_798_000_000),
    expiresDate: Timestamp(millisecondsSince1970: 1_338_476_755_868),
    webOrderLineItemId: "1000000000012345", environment: "Sandbox")

  static func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }

  /// A receipt around `purchaseInfo`, in Apple's layout.
  static func receipt(purchaseInfo: String) -> String {
    base64(
      """
      {
      \t"signature" = "AkSignature+/==";
      \t"purchase-info" = "\(base64(purchaseInfo))";
      \t"environment" = "Sandbox";
      \t"pod" = "100";
      \t"signing-status" = "0";
      }
      """)
  }

  @Test("reads back every field the builder wrote")
  func roundTrip() throws {
    let text = TransactionReceiptBuilder.base64Receipt(
      for: Self.transaction, signature: [1, 2, 3])
    #expect(try TransactionReceiptReader.read(base64: text) == Self.transaction)
    let minimal = TransactionReceipt(transactionId: "2", originalTransactionId: "1")
    #expect(
      try TransactionReceiptReader.read(
        base64: TransactionReceiptBuilder.base64Receipt(for: minimal)) == minimal)
  }

  /// A receipt made by this project's own builder in the shape Apple's receipt utility reads
  /// (our own code only: the reading rule is Apple's, the vector ours).
  @Test("a receipt holding only transaction-id yields that id, as Apple's receipt utility reads it")
  func onlyTransactionId() throws {
    let only = TransactionReceipt(
      transactionId: "1000000046178817", originalTransactionId: nil,
      productId: "com.example.monthly", bundleId: "com.example.app", environment: "Sandbox")
    let text = TransactionReceiptBuilder.base64Receipt(for: only)
    let read = try TransactionReceiptReader.read(base64: text)
    #expect(read.transactionId == "1000000046178817")
    #expect(read.originalTransactionId == nil)
    let seeds = try RawReceiptReader().seeds(fromBase64: text, signatureInstant: nil)
    #expect(seeds.originalTransactionIds == ["1000000046178817"])
    #expect(seeds.transactionIds == ["1000000046178817"])
    #expect(seeds.environment == .sandbox)

    // And through ingest's reader: the record's seed is the transaction id.
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let path = directory.appendingPathComponent("ios6.ndjson")
    try Data(#"{"account_id":"ios6","receipt_data":"\#(text)"}"#.utf8).write(to: path)
    var records: [LegacyRecord] = []
    try LegacyInputReader().read([path.path]) { event in
      if case .record(let record) = event { records.append(record) }
    }
    #expect(records.map(\.originalTransactionIds) == [["1000000046178817"]])
  }

  @Test("reads the old-style syntax in full: comments, unquoted words, escapes, nesting, data")
  func syntax() throws {
    let info = """
      // written by hand
      {
        /* ids */ transaction-id = 1000000000000002 ;
        "original-transaction-id" = "1000000000000001";
        "product-id" = "com.example.\\"quoted\\"\\U00e9\\ud83d\\ude00\\101";
        extras = ( a, "b", { c = d; }, <0fbd 771c>, );
        empty = {};
      }
      """
    let receipt = try TransactionReceiptReader.read(base64: Self.receipt(purchaseInfo: info))
    #expect(receipt.transactionId == "1000000000000002")
    #expect(receipt.originalTransactionId == "1000000000000001")
    #expect(receipt.productId == "com.example.\"quoted\"é😀A")
    #expect(receipt.environment == "Sandbox")
  }

  /// One damaged receipt (base64 text) and the exact error reading it must give.
  struct Malformation: Sendable, CustomTestStringConvertible {
    var name: String
    var base64: String
    var error: RawReceiptError
    var testDescription: String { name }
  }

  static let validInfo = """
    {
    \t"transaction-id" = "2";
    \t"original-transaction-id" = "1";
    }
    """

  static var malformations: [Malformation] {
    [
      .init(
        name: "no purchase-info", base64: base64(#"{ "signature" = "AA=="; }"#),
        error: .missingEntry(.receipt, key: "purchase-info")),
      .init(
        name: "purchase-info is not a string", base64: base64(#"{ "purchase-info" = ( x ); }"#),
        error: .entryNotString(.receipt, key: "purchase-info")),
      .init(
        name: "purchase-info is not base64", base64: base64(#"{ "purchase-info" = "ab*d"; }"#),
        error: .invalidBase64Character(.purchaseInfo, offset: 2, byte: UInt8(ascii: "*"))),
      .init(
        name: "outer text cut short", base64: base64(#"{ "purchase-info" = "ab"#),
        error: .malformedPropertyList(.receipt, .unexpectedEnd(offset: 23))),
      .init(
        name: "entry without '='", base64: base64(#"{ "purchase-info" "x"; }"#),
        error: .malformedPropertyList(
          .receipt,
          .unexpectedCharacter(
            offset: 18, found: UInt8(ascii: "\""), expected: "'=' after the key"))),
      .init(
        name: "entry without ';'", base64: receipt(purchaseInfo: #"{ a = b }"#),
        error: .malformedPropertyList(
          .purchaseInfo,
          .unexpectedCharacter(
            offset: 8, found: UInt8(ascii: "}"), expected: "';' after the value"))),
      .init(
        name: "repeated key", base64: receipt(purchaseInfo: #"{ a = b; a = c; }"#),
        error: .malformedPropertyList(.purchaseInfo, .duplicateKey(offset: 9, key: "a"))),
      .init(
        name: "text after the dictionary", base64: receipt(purchaseInfo: validInfo + " x"),
        error: .malformedPropertyList(.purchaseInfo, .trailingContent(offset: 63))),
      .init(
        name: "nesting too deep",
        base64: receipt(
          purchaseInfo: "{ a = " + String(repeating: "(", count: 40)
            + String(repeating: ")", count: 40) + "; }"),
        error: .malformedPropertyList(.purchaseInfo, .nestingTooDeep(offset: 21, limit: 16))),
      .init(
        name: "bad \\U escape", base64: receipt(purchaseInfo: #"{ a = "\U12"; }"#),
        error: .malformedPropertyList(.purchaseInfo, .invalidEscape(offset: 7))),
      .init(
        name: "lone surrogate", base64: receipt(purchaseInfo: #"{ a = "\udc00"; }"#),
        error: .malformedPropertyList(.purchaseInfo, .invalidEscape(offset: 7))),
      .init(
        name: "string that is not UTF-8", base64: receipt(purchaseInfo: #"{ a = "\377"; }"#),
        error: .malformedPropertyList(.purchaseInfo, .invalidUTF8(offset: 6))),
      .init(
        name: "unterminated comment", base64: receipt(purchaseInfo: "{ /* a = b; }"),
        error: .malformedPropertyList(.purchaseInfo, .unexpectedEnd(offset: 2))),
      .init(
        name: "odd data digits", base64: receipt(purchaseInfo: "{ a = <abc>; }"),
        error: .malformedPropertyList(
          .purchaseInfo,
          .unexpectedCharacter(
            offset: 10, found: UInt8(ascii: ">"), expected: "a second hex digit"))),
      .init(
        name: "purchase-info is an array", base64: receipt(purchaseInfo: "( a )"),
        error: .malformedPropertyList(
          .purchaseInfo,
          .unexpectedCharacter(
            offset: 0, found: UInt8(ascii: "("), expected: "'{' opening the dictionary"))),
      .init(
        name: "no transaction-id",
        base64: receipt(purchaseInfo: #"{ "original-transaction-id" = "1"; }"#),
        error: .missingEntry(.purchaseInfo, key: "transaction-id")),
      .init(
        name: "original-transaction-id not digits",
        base64: receipt(
          purchaseInfo: #"{ "transaction-id" = "2"; "original-transaction-id" = "1e9"; }"#),
        error: .invalidTransactionId(.purchaseInfo(key: "original-transaction-id"), value: "1e9")),
      .init(
        name: "purchase date not milliseconds",
        base64: receipt(
          purchaseInfo:
            #"{ "transaction-id" = "2"; "original-transaction-id" = "1"; "purchase-date-ms" = "2012-04-30"; }"#
        ),
        error: .invalidDate(.purchaseInfo(key: "purchase-date-ms"), text: "2012-04-30")),
      .init(
        name: "quantity not a number",
        base64: receipt(
          purchaseInfo:
            #"{ "transaction-id" = "2"; "original-transaction-id" = "1"; "quantity" = "one"; }"#
        ),
        error: .invalidNumber(.purchaseInfo(key: "quantity"), text: "one")),
    ]
  }

  @Test("every malformation gives its own precise error", arguments: malformations)
  func malformed(_ malformation: Malformation) {
    #expect(throws: malformation.error) {
      try TransactionReceiptReader.read(base64: malformation.base64)
    }
  }
}
