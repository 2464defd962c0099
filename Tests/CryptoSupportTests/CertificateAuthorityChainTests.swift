import CryptoSupport
import Foundation
import TestDirectories
import Testing

@Suite("Issuing certificates and chains")
struct CertificateAuthorityChainTests {
  typealias Instant = Fixture.Instant
  let specification = CertificateAuthorityChain.Specification.appStoreLike(
    notBefore: Instant.start, notAfter: Instant.end)

  @Test("an App-Store-like chain has the right shape")
  func shape() throws {
    let chain = try CertificateAuthorityChain.generate(specification)
    let root = chain.root.certificate
    let intermediate = chain.intermediate.certificate
    let leaf = chain.leaf.certificate
    #expect(root.issuer == root.subject)
    #expect(intermediate.issuer == root.subject)
    #expect(leaf.issuer == intermediate.subject)
    #expect(root.subject == "CN=Simulated Root CA,O=receipt-migrate simulator,C=US")
    #expect(root.isCertificateAuthority && intermediate.isCertificateAuthority)
    #expect(!leaf.isCertificateAuthority)
    #expect([root, intermediate, leaf].allSatisfy { $0.notBefore == Instant.start })
    #expect([root, intermediate, leaf].allSatisfy { $0.notAfter == Instant.end })
    #expect([root, intermediate, leaf].allSatisfy { $0.serialNumber.count == 16 })
    #expect(Set([root, intermediate, leaf].map(\.serialNumber)).count == 3)
    // Subject key identifier everywhere; authority key identifier below the root.
    #expect([root, intermediate, leaf].allSatisfy { $0.hasExtension(oid: "2.5.29.14") })
    #expect(!root.hasExtension(oid: "2.5.29.35"))
    #expect(intermediate.hasExtension(oid: "2.5.29.35") && leaf.hasExtension(oid: "2.5.29.35"))
    #expect(try leaf.publicKey() == chain.leaf.privateKey.publicKey)
    #expect(chain.x5c.count == 3)
    #expect(try X509Certificate(base64Encoded: chain.x5c[0]) == leaf)
    #expect(try X509Certificate(base64Encoded: chain.x5c[2]) == root)
  }

  @Test("marker extensions are non-critical and hold an ASN.1 NULL, as Apple's do")
  func markerEncoding() throws {
    let chain = try CertificateAuthorityChain.generate(specification)
    // Extension ::= SEQUENCE { extnID OID 1.2.840.113635.100.6.11.1, extnValue OCTET STRING
    // { NULL } } with the critical flag absent (DEFAULT FALSE).
    let oid: [UInt8] = [0x06, 0x0A, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x63, 0x64, 0x06, 0x0B, 0x01]
    let expected: [UInt8] = [0x30, 0x10] + oid + [0x04, 0x02, 0x05, 0x00]
    let der = chain.leaf.certificate.derRepresentation
    let found = (0...(der.count - expected.count)).contains {
      der[$0..<$0 + expected.count].elementsEqual(expected)
    }
    #expect(found)
  }

  @Test("the leaf signs data that verifies with the leaf certificate's key")
  func leafSigns() throws {
    let chain = try CertificateAuthorityChain.generate(specification)
    let message = Array("header.payload".utf8)
    let signature = try chain.leaf.privateKey.signature(for: message)
    #expect(try chain.leaf.certificate.publicKey().isValidSignature(signature, for: message))
  }

  @Test("writes PEM files with private keys readable only by the owner, and reloads them")
  func writeAndLoad() throws {
    let chain = try CertificateAuthorityChain.generate(specification)
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    try chain.write(toDirectory: directory)
    let names = CertificateAuthorityChain.fileNames
    for name in [names.rootKey, names.intermediateKey, names.leafKey] {
      let attributes = try FileManager.default.attributesOfItem(atPath: "\(directory)/\(name)")
      #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(name)")
    }
    let rootAttributes = try FileManager.default.attributesOfItem(
      atPath: "\(directory)/\(names.rootCertificate)")
    #expect((rootAttributes[.posixPermissions] as? Int) == 0o644)
    #expect(
      try String(contentsOfFile: "\(directory)/\(names.rootCertificate)", encoding: .utf8)
        == chain.root.certificate.pemRepresentation)

    let loaded = try CertificateAuthorityChain.load(fromDirectory: directory)
    #expect(loaded.root.certificate == chain.root.certificate)
    #expect(loaded.intermediate.certificate == chain.intermediate.certificate)
    #expect(loaded.leaf.certificate == chain.leaf.certificate)
    #expect(loaded.leaf.privateKey.publicKey == chain.leaf.privateKey.publicKey)
    #expect(loaded.root.privateKey.publicKey == chain.root.privateKey.publicKey)

    // What a client does: configure root.pem, verify what the reloaded leaf signs.
    let roots = try X509Certificate.certificates(
      contentsOfFile: "\(directory)/\(names.rootCertificate)")
    let verifier = try CertificateChainVerifier(trustedRoots: roots)
    let result = verifier.verify(
      leaf: loaded.leaf.certificate, intermediates: [loaded.intermediate.certificate],
      at: Instant.start + Instant.day)
    #expect(result.isValid)
    // A key written twice keeps owner-only permissions.
    try chain.write(toDirectory: directory)
    let again = try FileManager.default.attributesOfItem(atPath: "\(directory)/\(names.leafKey)")
    #expect((again[.posixPermissions] as? Int) == 0o600)
  }

  @Test("loading names the missing file; writing names the missing directory")
  func fileErrors() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let missing = try #require(throws: CryptoError.self) {
      try CertificateAuthorityChain.load(fromDirectory: directory)
    }
    #expect(missing.kind == .fileAccess)
    #expect(missing.message.contains("\(directory)/root.pem"))
    let chain = try CertificateAuthorityChain.generate(specification)
    let unwritable = try #require(throws: CryptoError.self) {
      try chain.write(toDirectory: "\(directory)/absent")
    }
    #expect(unwritable.kind == .fileAccess)
    #expect(unwritable.message.contains("\(directory)/absent/root.pem"))
  }

  @Test("a key is only paired with its own certificate, and parts must form a chain")
  func pairing() throws {
    let chain = try CertificateAuthorityChain.generate(specification)
    let error = try #require(throws: CryptoError.self) {
      try CertifiedKey(certificate: chain.root.certificate, privateKey: chain.leaf.privateKey)
    }
    #expect(error.kind == .invalidArgument)
    #expect(error.message.contains("does not belong to the certificate"))
    let other = try CertificateAuthorityChain.generate(specification)
    let rootNames = CertificateAuthorityChain.Specification.appStoreLike(
      notBefore: Instant.start, notAfter: Instant.end, organization: "Other")
    let renamed = try CertificateAuthorityChain.generate(rootNames)
    #expect(throws: CryptoError.self) {
      try CertificateAuthorityChain(
        root: renamed.root, intermediate: other.intermediate, leaf: other.leaf)
    }
  }

  @Test("several chains can share one root")
  func sharedRoot() throws {
    let first = try CertificateAuthorityChain.generate(specification)
    let second = try CertificateAuthorityChain.generate(specification, under: first.root)
    #expect(second.root.certificate == first.root.certificate)
    #expect(second.leaf.certificate != first.leaf.certificate)
    let verifier = try CertificateChainVerifier(trustedRoots: [first.root.certificate])
    let result = verifier.verify(
      leaf: second.leaf.certificate, intermediates: [second.intermediate.certificate],
      at: Instant.start)
    #expect(result.isValid)
  }

  @Test("a leaf without its marker is issued as asked")
  func withoutMarker() throws {
    var specification = self.specification
    specification.leaf.markerExtensionOIDs = []
    let chain = try CertificateAuthorityChain.generate(specification)
    #expect(
      !chain.leaf.certificate.hasExtension(oid: AppleCertificateExtension.appStoreSigningLeaf))
  }

  @Test("invalid templates are refused with the reason")
  func invalidTemplates() throws {
    var reversed = specification.root
    reversed.notBefore = Instant.end
    reversed.notAfter = Instant.start
    let period = try #require(throws: CryptoError.self) { try CertifiedKey.selfSigned(reversed) }
    #expect(period.kind == .invalidArgument)
    #expect(period.message.contains("notBefore must not be after notAfter"))

    var badOID = specification.root
    badOID.markerExtensionOIDs = ["apple"]
    let oid = try #require(throws: CryptoError.self) { try CertifiedKey.selfSigned(badOID) }
    #expect(oid.message.contains("\"apple\" is not a dotted object identifier"))

    var badName = specification.root
    badName.subject = DistinguishedName([.init(type: "NOT-A-TYPE", value: "x")])
    let name = try #require(throws: CryptoError.self) { try CertifiedKey.selfSigned(badName) }
    #expect(name.message.contains("NOT-A-TYPE=x"))

    var badSerial = specification.root
    badSerial.serialNumber = []
    #expect(throws: CryptoError.self) { try CertifiedKey.selfSigned(badSerial) }
  }

  @Test("a chosen serial number, subject and key are used")
  func chosenFields() throws {
    let key = try P256PrivateKey.generate()
    var template = CertificateTemplate.certificateAuthority(
      subject: DistinguishedName(
        commonName: "Zürich Root", organizationalUnit: "Unit", organization: "Org", country: "CH"),
      notBefore: Instant.start, notAfter: Instant.end)
    template.serialNumber = [0x01, 0x02]
    let root = try CertifiedKey.selfSigned(template, privateKey: key)
    #expect(root.certificate.subject == "CN=Zürich Root,OU=Unit,O=Org,C=CH")
    #expect(root.certificate.serialNumberHex == "0102")
    #expect(try root.certificate.publicKey() == key.publicKey)
    let leafKey = try P256PrivateKey.generate()
    let leaf = try root.issueCertificate(
      .leaf(
        subject: DistinguishedName(commonName: "Leaf"), notBefore: Instant.start,
        notAfter: Instant.end),
      for: leafKey.publicKey)
    #expect(try leaf.publicKey() == leafKey.publicKey)
    #expect(leaf.issuer == root.certificate.subject)
  }
}
