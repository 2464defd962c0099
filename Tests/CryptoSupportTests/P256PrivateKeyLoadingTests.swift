import CryptoSupport
import Foundation
import TestDirectories
import Testing

@Suite("Loading P-256 private keys")
struct P256PrivateKeyLoadingTests {
  static let howToGetOne = "App Store Connect > Users and Access > Integrations > In-App Purchase"

  @Test(
    "loads PKCS#8 and SEC1 PEM, from text, bytes and file",
    arguments: ["p256-pkcs8.pem", "p256-sec1.pem"])
  func loadsSupportedForms(fixture: String) throws {
    let expected = try P256PublicKey(pemRepresentation: Fixture.text("p256-public.pem"))
    let fromText = try P256PrivateKey(pemRepresentation: Fixture.text(fixture))
    let fromBytes = try P256PrivateKey(pemRepresentation: Fixture.bytes(fixture))
    let fromFile = try P256PrivateKey(contentsOfFile: Fixture.path(fixture))
    #expect(fromText.publicKey == expected)
    #expect(fromBytes.publicKey == expected)
    #expect(fromFile.publicKey == expected)
  }

  @Test("skips an EC PARAMETERS block before the key, as `openssl ecparam -genkey` writes it")
  func loadsKeyAfterParameters() throws {
    let key = try P256PrivateKey(contentsOfFile: Fixture.path("p256-sec1-with-parameters.pem"))
    let signature = try key.signature(for: Array("message".utf8))
    #expect(key.publicKey.isValidSignature(signature, for: Array("message".utf8)))
  }

  struct Failure: Sendable, CustomStringConvertible {
    let fixture: String
    let kind: CryptoError.Kind
    let mentions: [String]
    var description: String { fixture }
  }

  static let failures: [Failure] = [
    Failure(fixture: "rsa-pkcs8.pem", kind: .unsupportedKey, mentions: ["an RSA key of 2048 bits"]),
    Failure(
      fixture: "rsa-traditional.pem", kind: .unsupportedKey, mentions: ["an RSA private key"]),
    Failure(fixture: "p384-pkcs8.pem", kind: .unsupportedKey, mentions: ["secp384r1 (P-384)"]),
    Failure(fixture: "ed25519-pkcs8.pem", kind: .unsupportedKey, mentions: ["an Ed25519 key"]),
    Failure(
      fixture: "certificate.pem", kind: .unexpectedPEMKind, mentions: ["holds a certificate"]),
    Failure(fixture: "bundle.pem", kind: .unexpectedPEMKind, mentions: ["a certificate"]),
    Failure(fixture: "p256-public.pem", kind: .unexpectedPEMKind, mentions: ["a public key"]),
    Failure(
      fixture: "p256-encrypted-pkcs8.pem", kind: .encryptedKey,
      mentions: ["passphrase-encrypted", "openssl pkcs8"]),
    Failure(
      fixture: "p256-encrypted-sec1.pem", kind: .encryptedKey,
      mentions: ["encrypted with a passphrase", "openssl ec"]),
    Failure(fixture: "certificate.der", kind: .notPEM, mentions: ["binary DER"]),
  ]

  @Test("names what a wrong file holds and how to get the right one", arguments: failures)
  func explainsWrongFiles(failure: Failure) throws {
    let path = try Fixture.path(failure.fixture)
    let error = try #require(throws: CryptoError.self) {
      try P256PrivateKey(contentsOfFile: path)
    }
    #expect(error.kind == failure.kind)
    #expect(error.message.contains("the private key at \(path)"))
    for mention in failure.mentions {
      #expect(error.message.contains(mention), "\(error.message)")
    }
    #expect(error.message.contains("PKCS#8"))
    #expect(error.message.contains(Self.howToGetOne))
    expectNoKeyMaterial(in: error.description, keyPEM: try Fixture.text(failure.fixture))
  }

  @Test("a missing file is named with the system's reason")
  func missingFile() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let path = directory + "/AuthKey_ABC123.p8"
    let error = try #require(throws: CryptoError.self) {
      try P256PrivateKey(contentsOfFile: path)
    }
    #expect(error.kind == .fileAccess)
    #expect(error.message.contains(path))
    #expect(error.message.contains("No such file or directory"))
    #expect(error.message.contains(Self.howToGetOne))
  }

  @Test("a directory is not a key file")
  func directory() throws {
    let path = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(path) }
    let error = try #require(throws: CryptoError.self) {
      try P256PrivateKey(contentsOfFile: path)
    }
    #expect(error.kind == .fileAccess)
    #expect(error.message.contains("Is a directory"))
  }

  // root reads a file whatever its mode, so this can only be checked as another user.
  @Test("an unreadable file names the permission problem", .enabled(if: getuid() != 0))
  func unreadableFile() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let path = directory + "/key.p8"
    try Fixture.text("p256-pkcs8.pem").write(toFile: path, atomically: false, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: path)
    let error = try #require(throws: CryptoError.self) {
      try P256PrivateKey(contentsOfFile: path)
    }
    #expect(error.kind == .fileAccess)
    #expect(error.message.contains("Permission denied"))
  }

  @Test(
    "text that is not PEM, or a damaged key block",
    arguments: [
      ("hello, world", CryptoError.Kind.notPEM),
      ("", .notPEM),
      ("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", .malformedInput),
      ("-----BEGIN EC PRIVATE KEY-----\nMAA=\n-----END EC PRIVATE KEY-----\n", .malformedInput),
    ])
  func rejectsText(text: String, kind: CryptoError.Kind) throws {
    let error = try #require(throws: CryptoError.self) {
      try P256PrivateKey(pemRepresentation: text)
    }
    #expect(error.kind == kind)
    #expect(error.message.contains("the private key text"))
    #expect(error.message.contains(Self.howToGetOne))
  }

  @Test("description, debugDescription and dump never show the key")
  func redaction() throws {
    let pem = try Fixture.text("p256-pkcs8.pem")
    let key = try P256PrivateKey(pemRepresentation: pem)
    #expect(key.description == "P256PrivateKey(<redacted>)")
    #expect(String(reflecting: key) == "P256PrivateKey(<redacted>)")
    #expect("\(key)" == "P256PrivateKey(<redacted>)")
    var dumped = ""
    dump(key, to: &dumped)
    #expect(dumped.contains("<redacted>"))
    expectNoKeyMaterial(in: dumped, keyPEM: pem)
  }

  @Test("exports PKCS#8 PEM that loads back to the same key")
  func exportsPKCS8() throws {
    let key = try P256PrivateKey.generate()
    let pem = try key.pemRepresentation
    #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
    #expect(pem.hasSuffix("-----END PRIVATE KEY-----\n"))
    let reloaded = try P256PrivateKey(pemRepresentation: pem)
    #expect(reloaded.publicKey == key.publicKey)
    let signature = try reloaded.signature(for: [1, 2, 3])
    #expect(key.publicKey.isValidSignature(signature, for: [1, 2, 3]))
  }

  @Test("the SEC1 and PKCS#8 fixtures are the same key, and generated keys differ")
  func identity() throws {
    let pkcs8 = try P256PrivateKey(contentsOfFile: Fixture.path("p256-pkcs8.pem"))
    let sec1 = try P256PrivateKey(contentsOfFile: Fixture.path("p256-sec1.pem"))
    #expect(pkcs8.publicKey == sec1.publicKey)
    #expect(try P256PrivateKey.generate().publicKey != P256PrivateKey.generate().publicKey)
  }
}
