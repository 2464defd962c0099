import CryptoSupport
import Testing

@Suite("PKCS#7 signedData")
struct PKCS7SignedDataTests {
  typealias Instant = Fixture.Instant
  let chain: CertificateAuthorityChain
  let content: [UInt8] = Array("an app receipt payload, ASN.1 in real life".utf8)
  let instant = Fixture.Instant.start + Fixture.Instant.day

  init() throws {
    chain = try CertificateAuthorityChain.generate(
      .appStoreLike(notBefore: Instant.start, notAfter: Instant.end))
  }

  func sign(_ encoding: PKCS7SignedData.Encoding = .der) throws -> [UInt8] {
    try PKCS7SignedData.sign(
      content: content, signer: chain.leaf,
      additionalCertificates: [chain.intermediate.certificate], encoding: encoding)
  }

  @Test(
    "a signed envelope verifies and yields its content and signer",
    arguments: [
      PKCS7SignedData.Encoding.der, .indefiniteLengthBER,
    ])
  func roundTrip(encoding: PKCS7SignedData.Encoding) throws {
    let envelope = try sign(encoding)
    let result = PKCS7SignedData.verify(
      envelope, trustedRoots: [chain.root.certificate], at: instant)
    #expect(result == .valid(content: content, signer: chain.leaf.certificate))
  }

  @Test("the streaming encoding really is BER with indefinite lengths")
  func indefiniteLengths() throws {
    let ber = try sign(.indefiniteLengthBER)
    let der = try sign(.der)
    // ContentInfo ::= SEQUENCE: 30 80 opens an indefinite length, 00 00 closes it.
    #expect(Array(ber.prefix(2)) == [0x30, 0x80])
    #expect(Array(ber.suffix(2)) == [0x00, 0x00])
    #expect(der[0] == 0x30 && der[1] != 0x80)
  }

  @Test(
    "altered content fails the signature check",
    arguments: [
      PKCS7SignedData.Encoding.der, .indefiniteLengthBER,
    ])
  func tamperedContent(encoding: PKCS7SignedData.Encoding) throws {
    var envelope = try sign(encoding)
    let offset = try #require(
      (0...(envelope.count - content.count)).first {
        envelope[$0..<$0 + content.count].elementsEqual(content)
      })
    envelope[offset + 3] ^= 0x20
    let result = PKCS7SignedData.verify(
      envelope, trustedRoots: [chain.root.certificate], at: instant)
    let failure = try #require(result.failure)
    guard case .badSignature = failure else {
      Issue.record("expected badSignature, got \(failure)")
      return
    }
    #expect(failure.description.contains("does not match the content"))
  }

  @Test("a signer from another root is untrusted, though it embeds its own root")
  func wrongRoot() throws {
    let other = try CertificateAuthorityChain.generate(
      .appStoreLike(notBefore: Instant.start, notAfter: Instant.end))
    let envelope = try PKCS7SignedData.sign(
      content: content, signer: other.leaf,
      additionalCertificates: [other.intermediate.certificate, other.root.certificate])
    let result = PKCS7SignedData.verify(
      envelope, trustedRoots: [chain.root.certificate], at: instant)
    let failure = try #require(result.failure)
    guard case .untrustedSigner(.untrusted) = failure else {
      Issue.record("expected untrustedSigner(.untrusted), got \(failure)")
      return
    }
  }

  @Test("the signer's chain is checked at the given instant")
  func checksAtInstant() throws {
    let envelope = try sign()
    let verifier = try CertificateChainVerifier(trustedRoots: [chain.root.certificate])
    let later = Instant.end + Instant.day
    let result = PKCS7SignedData.verify(envelope, using: verifier, at: later)
    guard case .untrustedSigner(.expired) = try #require(result.failure) else {
      Issue.record("expected untrustedSigner(.expired), got \(result)")
      return
    }
    #expect(PKCS7SignedData.verify(envelope, using: verifier, at: instant).content == content)
  }

  @Test("without the intermediate embedded, the signer cannot be chained")
  func missingIntermediate() throws {
    let envelope = try PKCS7SignedData.sign(content: content, signer: chain.leaf)
    let result = PKCS7SignedData.verify(
      envelope, trustedRoots: [chain.root.certificate], at: instant)
    #expect(
      result.failure
        == .untrustedSigner(.untrusted(certificate: chain.leaf.certificate.subject)))
  }

  @Test(
    "bytes that are not PKCS#7 are malformed",
    arguments: [
      [UInt8](), [0x30, 0x00], Array("MIAGCSqGSIb3DQEHAqCAMIACAQEx".utf8),
    ])
  func malformed(bytes: [UInt8]) throws {
    let result = PKCS7SignedData.verify(bytes, trustedRoots: [chain.root.certificate], at: instant)
    guard case .malformed = try #require(result.failure) else {
      Issue.record("expected malformed, got \(result)")
      return
    }
  }

  @Test("a truncated or extended envelope is malformed")
  func truncated() throws {
    let envelope = try sign()
    for damaged in [Array(envelope.dropLast(10)), envelope + [0x00]] {
      let result = PKCS7SignedData.verify(
        damaged, trustedRoots: [chain.root.certificate], at: instant)
      guard case .malformed = try #require(result.failure) else {
        Issue.record("expected malformed, got \(result)")
        continue
      }
    }
  }

  @Test("empty content signs and verifies")
  func emptyContent() throws {
    let envelope = try PKCS7SignedData.sign(
      content: [], signer: chain.leaf, additionalCertificates: [chain.intermediate.certificate])
    let result = PKCS7SignedData.verify(
      envelope, trustedRoots: [chain.root.certificate], at: instant)
    #expect(result.content == [])
  }
}
