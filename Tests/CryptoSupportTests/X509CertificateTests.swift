import CryptoSupport
import Foundation
import Testing

@Suite("X.509 certificates")
struct X509CertificateTests {
  /// `openssl x509 -noout -fingerprint -sha256 -serial -subject -nameopt RFC2253 -startdate
  /// -enddate` output for the fixture certificate, as `key=value` lines.
  static func opensslFields() throws -> [String: String] {
    var fields: [String: String] = [:]
    for line in try Fixture.text("certificate-openssl.txt").split(separator: "\n") {
      guard let equals = line.firstIndex(of: "=") else { continue }
      fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
    }
    return fields
  }

  @Test("PEM, DER, base64 and file loading agree, and fields match the openssl command line")
  func fixtureFields() throws {
    let fromPEM = try X509Certificate(pemRepresentation: Fixture.text("certificate.pem"))
    let fromDER = try X509Certificate(derRepresentation: Fixture.bytes("certificate.der"))
    let fromBase64 = try X509Certificate(base64Encoded: fromDER.base64Encoded)
    let fromPEMFile = try X509Certificate.certificates(
      contentsOfFile: Fixture.path("certificate.pem"))
    let fromDERFile = try X509Certificate.certificates(
      contentsOfFile: Fixture.path("certificate.der"))
    #expect(fromPEM == fromDER)
    #expect(fromBase64 == fromDER)
    #expect(fromPEMFile == [fromDER])
    #expect(fromDERFile == [fromDER])
    #expect(fromDER.derRepresentation == (try Fixture.bytes("certificate.der")))

    let openssl = try Self.opensslFields()
    let fingerprint = try #require(openssl["sha256 Fingerprint"])
    #expect(fromDER.sha256Fingerprint == fingerprint.replacingOccurrences(of: ":", with: ""))
    #expect(
      fromDER.sha256Fingerprint == SHA256.hexDigest(fromDER.derRepresentation, uppercase: true))
    #expect(fromDER.serialNumberHex == openssl["serial"])
    #expect(fromDER.serialNumber == [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF])
    #expect(fromDER.subject == openssl["subject"])
    #expect(fromDER.subject == "CN=Fixture Root,OU=Fixtures,O=Example Org,C=US")
    #expect(fromDER.issuer == fromDER.subject)
    // notBefore=Nov 21 19:35:11 2026 GMT, notAfter=Oct 28 19:35:11 2126 GMT.
    #expect(openssl["notBefore"] == "Nov 21 19:35:11 2026 GMT")
    #expect(fromDER.notBefore == 1_795_289_711_000)
    #expect(openssl["notAfter"] == "Oct 28 19:35:11 2126 GMT")
    #expect(fromDER.notAfter == 4_948_889_711_000)
    #expect(fromDER.isCertificateAuthority)
  }

  @Test("the certificate's public key is the fixture key, and PEM export round-trips")
  func publicKeyAndExport() throws {
    let certificate = try X509Certificate(derRepresentation: Fixture.bytes("certificate.der"))
    let expected = try P256PublicKey(pemRepresentation: Fixture.text("p256-public.pem"))
    #expect(try certificate.publicKey() == expected)
    #expect(try P256PublicKey(certificate: certificate) == expected)
    #expect(certificate.pemRepresentation.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
    #expect(try X509Certificate(pemRepresentation: certificate.pemRepresentation) == certificate)
    // Lines of the PEM body are 64 characters, as RFC 7468 asks.
    let lines = certificate.pemRepresentation.split(separator: "\n").dropFirst().dropLast()
    #expect(lines.dropLast().allSatisfy { $0.count == 64 })
  }

  @Test("a bundle loads in order; the single-certificate initializer refuses it")
  func bundle() throws {
    let text = try Fixture.text("bundle.pem")
    let certificates = try X509Certificate.certificates(pemRepresentation: text)
    #expect(
      certificates.map(\.subject) == [
        "CN=Fixture Root,OU=Fixtures,O=Example Org,C=US", "CN=Fixture RSA",
      ])
    let error = try #require(throws: CryptoError.self) {
      try X509Certificate(pemRepresentation: text)
    }
    #expect(error.kind == .invalidArgument)
    #expect(error.message.contains("2 certificates"))
  }

  @Test("an RSA certificate loads, but its key is refused for ES256")
  func rsaCertificate() throws {
    let certificate = try X509Certificate(pemRepresentation: Fixture.text("rsa-certificate.pem"))
    let error = try #require(throws: CryptoError.self) { try certificate.publicKey() }
    #expect(error.kind == .unsupportedKey)
    #expect(error.message.contains("an RSA key of 2048 bits"))
    #expect(error.message.contains("CN=Fixture RSA"))
  }

  @Test("bad input is refused with the reason")
  func malformed() throws {
    let der = try Fixture.bytes("certificate.der")
    #expect(throws: CryptoError.self) { try X509Certificate(derRepresentation: der.dropLast()) }
    let trailing = try #require(throws: CryptoError.self) {
      try X509Certificate(derRepresentation: der + [0])
    }
    #expect(trailing.message.contains("trailing bytes"))
    let base64 = try #require(throws: CryptoError.self) {
      try X509Certificate(base64Encoded: "not*base64")
    }
    #expect(base64.kind == .malformedInput)
    let key = try #require(throws: CryptoError.self) {
      try X509Certificate.certificates(pemRepresentation: Fixture.text("p256-pkcs8.pem"))
    }
    #expect(key.kind == .unexpectedPEMKind)
    #expect(key.message.contains("a PKCS#8 private key"))
    let text = try #require(throws: CryptoError.self) {
      try X509Certificate.certificates(pemRepresentation: "plain text")
    }
    #expect(text.kind == .notPEM)
    let damaged = try #require(throws: CryptoError.self) {
      try X509Certificate.certificates(
        pemRepresentation: "-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----\n")
    }
    #expect(damaged.kind == .malformedInput)
    #expect(!damaged.openSSLErrors.isEmpty)
  }

  @Test("extension presence by dotted OID")
  func extensions() throws {
    let chain = try CertificateAuthorityChain.generate(
      .appStoreLike(notBefore: Fixture.Instant.start, notAfter: Fixture.Instant.end))
    let leaf = chain.leaf.certificate
    let intermediate = chain.intermediate.certificate
    #expect(leaf.hasExtension(oid: AppleCertificateExtension.appStoreSigningLeaf))
    #expect(!leaf.hasExtension(oid: AppleCertificateExtension.developerRelationsIntermediate))
    #expect(
      intermediate.hasExtension(oid: AppleCertificateExtension.developerRelationsIntermediate))
    #expect(!intermediate.hasExtension(oid: AppleCertificateExtension.appStoreSigningLeaf))
    #expect(leaf.hasExtension(oid: "2.5.29.19"))  // basic constraints
    #expect(!leaf.hasExtension(oid: "1.2.3.4.5"))
    #expect(!leaf.hasExtension(oid: "basicConstraints"))  // names are not dotted OIDs
    #expect(!leaf.hasExtension(oid: "not an oid"))
  }
}
