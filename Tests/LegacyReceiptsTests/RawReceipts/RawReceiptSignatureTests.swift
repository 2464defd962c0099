import Chronology
import CryptoSupport
import LegacyReceipts
import Testing

@Suite("RawReceiptSignature")
struct RawReceiptSignatureTests {
  typealias Fixtures = ReceiptFixtures

  @Test(
    "a receipt signed by the trusted chain is valid, in either encoding",
    arguments: [PKCS7SignedData.Encoding.der, .indefiniteLengthBER])
  func valid(encoding: PKCS7SignedData.Encoding) throws {
    let bytes = try Fixtures.signed(Fixtures.receipt(purchases: 3), encoding)
    let signature = RawReceiptSignature.check(
      appReceipt: bytes, using: Fixtures.verifier, at: Fixtures.created)
    #expect(signature == .valid(signer: Fixtures.chain.leaf.certificate.subject))
    #expect(signature.verdict == "valid")
  }

  @Test("a receipt signed by another chain is invalid: its signer is not trusted")
  func otherRoot() throws {
    let other = try CertificateAuthorityChain.generate(
      .appStoreLike(
        notBefore: Fixtures.chainStart.millisecondsSince1970,
        notAfter: Fixtures.chainEnd.millisecondsSince1970))
    let verifier = try CertificateChainVerifier(trustedRoots: [other.root.certificate])
    let bytes = try Fixtures.signed(Fixtures.receipt(purchases: 1), .der)
    let signature = RawReceiptSignature.check(
      appReceipt: bytes, using: verifier, at: Fixtures.created)
    guard case .invalid(let reason) = signature else {
      Issue.record("expected invalid, got \(signature)")
      return
    }
    #expect(reason.contains("not trusted"), "\(reason)")
  }

  @Test("an altered receipt is invalid, though it still reads")
  func altered() throws {
    var bytes = try Fixtures.signed(Fixtures.receipt(purchases: 1), .der)
    let id = Array("1000000800000000".utf8)
    let offset = try #require(
      (0...(bytes.count - id.count)).first { bytes[$0..<$0 + id.count].elementsEqual(id) })
    bytes[offset + id.count - 1] = UInt8(ascii: "9")
    #expect(try AppReceiptReader.read(bytes).transactionIds == ["1000000800000009"])
    let signature = RawReceiptSignature.check(
      appReceipt: bytes, using: Fixtures.verifier, at: Fixtures.created)
    guard case .invalid(let reason) = signature else {
      Issue.record("expected invalid, got \(signature)")
      return
    }
    #expect(reason.contains("altered"), "\(reason)")
  }

  @Test("a chain checked after it expired is invalid")
  func expired() throws {
    let bytes = try Fixtures.signed(Fixtures.receipt(purchases: 1), .der)
    let late = Fixtures.chainEnd.adding(milliseconds: Timestamp.millisecondsPerDay)
    let signature = RawReceiptSignature.check(appReceipt: bytes, using: Fixtures.verifier, at: late)
    guard case .invalid(let reason) = signature else {
      Issue.record("expected invalid, got \(signature)")
      return
    }
    #expect(reason.contains("expired"), "\(reason)")
  }

  @Test("an unsigned envelope is invalid: it has no signer")
  func unsigned() {
    let bytes = Fixtures.envelope(payload: AppReceiptReaderTests.validPayload)
    let signature = RawReceiptSignature.check(
      appReceipt: bytes, using: Fixtures.verifier, at: Fixtures.created)
    #expect(signature.verdict == "invalid")
  }

  @Test("the reader checks at the receipt's creation date unless told an instant")
  func readerInstants() throws {
    let reader = RawReceiptReader(verifier: Fixtures.verifier)
    let text = Fixtures.base64(try Fixtures.signed(Fixtures.receipt(purchases: 2), .der))
    #expect(try reader.read(base64: text).signature.verdict == "valid")
    let late = Fixtures.chainEnd.adding(milliseconds: 1_000)
    #expect(try reader.read(base64: text, signatureInstant: late).signature.verdict == "invalid")

    var undated = Fixtures.receipt(purchases: 2)
    undated.creationDate = nil
    let undatedText = Fixtures.base64(try Fixtures.signed(undated, .der))
    #expect(try reader.read(base64: undatedText).signature == .notChecked(.noInstant))
    #expect(
      try reader.read(base64: undatedText, signatureInstant: Fixtures.created).signature.verdict
        == "valid")
  }

  @Test("without trusted roots nothing is checked, and the ids are still read")
  func noRoots() throws {
    let text = Fixtures.base64(try Fixtures.signed(Fixtures.receipt(purchases: 2), .der))
    let seeds = try RawReceiptReader().seeds(fromBase64: text)
    #expect(seeds.signature == .notChecked(.noTrustedRoots))
    #expect(seeds.originalTransactionIds.count == 2)
  }
}
