import CryptoSupport
import Testing

@Suite("P-256 public keys")
struct P256PublicKeyTests {
  @Test("DER and PEM round-trip to an equal key")
  func roundTrip() throws {
    let key = try P256PublicKey(pemRepresentation: Fixture.text("p256-public.pem"))
    #expect(key.pemRepresentation == (try Fixture.text("p256-public.pem")))
    #expect(try P256PublicKey(derRepresentation: key.derRepresentation) == key)
    #expect(key.derRepresentation.count == 91)  // SPKI of an uncompressed P-256 point
    #expect(key.description.hasPrefix("P256PublicKey(sha256: "))
  }

  @Test("refuses other PEM kinds, naming them, and keys of other curves")
  func refusals() throws {
    let certificate = try #require(throws: CryptoError.self) {
      try P256PublicKey(pemRepresentation: Fixture.text("certificate.pem"))
    }
    #expect(certificate.kind == .unexpectedPEMKind)
    #expect(certificate.message.contains("holds a certificate"))
    #expect(certificate.message.contains("publicKey"))
    let privateKey = try #require(throws: CryptoError.self) {
      try P256PublicKey(pemRepresentation: Fixture.text("p256-pkcs8.pem"))
    }
    #expect(privateKey.kind == .unexpectedPEMKind)
    expectNoKeyMaterial(
      in: privateKey.description, keyPEM: try Fixture.text("p256-pkcs8.pem"))
    let p384 = try P384Fixture.p384PublicKeyDER()
    let curve = try #require(throws: CryptoError.self) {
      try P256PublicKey(derRepresentation: p384)
    }
    #expect(curve.kind == .unsupportedKey)
    #expect(curve.message.contains("P-384"))
    let garbage = try #require(throws: CryptoError.self) {
      try P256PublicKey(derRepresentation: [0x30, 0x03, 0x02, 0x01, 0x01])
    }
    #expect(garbage.kind == .malformedInput)
    #expect(throws: CryptoError.self) { try P256PublicKey(pemRepresentation: "no pem here") }
  }
}

/// A valid P-384 public key, for refusal tests.
enum P384Fixture {
  /// SEQUENCE { SEQUENCE { id-ecPublicKey, secp384r1 }, BIT STRING { 04 || x || y } } with the
  /// P-384 generator point (SEC 2 §2.5.1) as the public point, so that only the curve is wrong.
  static func p384PublicKeyDER() throws -> [UInt8] {
    let gx: [UInt8] = [
      0xAA, 0x87, 0xCA, 0x22, 0xBE, 0x8B, 0x05, 0x37, 0x8E, 0xB1, 0xC7, 0x1E, 0xF3, 0x20, 0xAD,
      0x74, 0x6E, 0x1D, 0x3B, 0x62, 0x8B, 0xA7, 0x9B, 0x98, 0x59, 0xF7, 0x41, 0xE0, 0x82, 0x54,
      0x2A, 0x38, 0x55, 0x02, 0xF2, 0x5D, 0xBF, 0x55, 0x29, 0x6C, 0x3A, 0x54, 0x5E, 0x38, 0x72,
      0x76, 0x0A, 0xB7,
    ]
    let gy: [UInt8] = [
      0x36, 0x17, 0xDE, 0x4A, 0x96, 0x26, 0x2C, 0x6F, 0x5D, 0x9E, 0x98, 0xBF, 0x92, 0x92, 0xDC,
      0x29, 0xF8, 0xF4, 0x1D, 0xBD, 0x28, 0x9A, 0x14, 0x7C, 0xE9, 0xDA, 0x31, 0x13, 0xB5, 0xF0,
      0xB8, 0xC0, 0x0A, 0x60, 0xB1, 0xCE, 0x1D, 0x7E, 0x81, 0x9D, 0x7A, 0x43, 0x1D, 0x7C, 0x90,
      0xEA, 0x0E, 0x5F,
    ]
    let algorithm: [UInt8] = [
      0x30, 0x10, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x05, 0x2B, 0x81,
      0x04, 0x00, 0x22,
    ]
    let bitString: [UInt8] = [0x03, 0x62, 0x00, 0x04] + gx + gy
    return [0x30, 0x76] + algorithm + bitString
  }
}
