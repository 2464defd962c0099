import AppStoreServerAPI
import CryptoSupport
import MigrationStore
import Testing

@testable import MigrationPipeline

/// Reading back the payload of a stored value (own-code evidence: the JWS texts are made here).
@Suite("Stored signed values")
struct StoredSignedValueTests {
  static let payload = Base64URL.encode(Array(#"{"transactionId":"42","price":1990}"#.utf8))

  @Test("the payload of a compact JWS is decoded, whatever the header's length")
  func decodes() throws {
    for header in ["h", String(repeating: "x", count: 4096)] {
      let value = try StoredSignedValue.decode(
        "\(header).\(Self.payload).c2ln", as: JWSTransaction.self)
      #expect(value.transactionId == "42")
      #expect(value.price == 1990)
    }
  }

  @Test(
    "text that is not three dot-separated parts is refused",
    arguments: ["", "no dots", "one.dot", "four.dot.sep.arated", "a.b.c.", ".\(payload).s."]
  )
  func refuses(text: String) {
    #expect(throws: StoredSignedValue.Failure.self) {
      try StoredSignedValue.decode(text, as: JWSTransaction.self)
    }
  }

  @Test("a value stored as header and rest decodes from the rest alone, as it would whole")
  func decodesFromTheRest() throws {
    let rest = "\(Self.payload).c2ln"
    let apart = try StoredSignedValue.decode(
      StoredSignedText(header: "h", rest: rest), as: JWSTransaction.self)
    let whole = try StoredSignedValue.decode(
      StoredSignedText(whole: "h.\(rest)"), as: JWSTransaction.self)
    #expect(apart == whole)
    #expect(apart.transactionId == "42")
  }

  @Test(
    "a rest that is not exactly payload and signature is refused",
    arguments: ["", "nodot", "a.b.c", "\(payload).s."]
  )
  func refusesRest(rest: String) {
    #expect(throws: StoredSignedValue.Failure.self) {
      try StoredSignedValue.decode(
        StoredSignedText(header: "h", rest: rest), as: JWSTransaction.self)
    }
  }

  @Test("three empty parts are a compact JWS with nothing to decode: an error, not a crash")
  func emptyParts() {
    #expect(throws: (any Error).self) {
      try StoredSignedValue.decode("..", as: JWSTransaction.self)
    }
  }
}
