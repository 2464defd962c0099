import CryptoSupport
import Testing

@Suite("ES256 signature encodings: DER and JOSE r||s")
struct ES256SignatureConversionTests {
  static func padded(_ bytes: [UInt8]) -> [UInt8] {
    [UInt8](repeating: 0, count: 32 - bytes.count) + bytes
  }

  @Test("short integers are left-padded to 32 bytes")
  func shortIntegers() throws {
    let der: [UInt8] = [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02]
    let jose = try ES256Signature.jose(fromDER: der)
    #expect(jose == Self.padded([0x01]) + Self.padded([0x02]))
    #expect(try ES256Signature.der(fromJOSE: jose) == der)
  }

  @Test("a DER sign byte (00 before a high bit) is dropped, and restored going back")
  func highBitIntegers() throws {
    let r = [UInt8](repeating: 0xFF, count: 32)
    let s = [0x80] + [UInt8](repeating: 0x01, count: 31)
    let der: [UInt8] = [0x30, 0x46, 0x02, 0x21, 0x00] + r + [0x02, 0x21, 0x00] + s
    let jose = try ES256Signature.jose(fromDER: der)
    #expect(jose == r + s)
    #expect(try ES256Signature.der(fromJOSE: jose) == der)
  }

  @Test("leading zero bytes of r and s become minimal DER integers")
  func leadingZeros() throws {
    let r = [0x00, 0x00, 0x7F] + [UInt8](repeating: 0xAB, count: 29)
    let s = [0x00] + [0x90] + [UInt8](repeating: 0x11, count: 30)
    let der = try ES256Signature.der(fromJOSE: r + s)
    // r: 30 bytes (0x7F has no high bit); s: 31 bytes plus a sign byte for 0x90.
    let expected: [UInt8] =
      [0x30, 0x42, 0x02, 0x1E] + Array(r.dropFirst(2)) + [0x02, 0x1F + 0x01, 0x00]
      + Array(s.dropFirst(1))
    #expect(der == expected)
    #expect(try ES256Signature.jose(fromDER: der) == r + s)
  }

  @Test("real signatures round-trip DER → JOSE → DER, whatever their DER length")
  func roundTrip() throws {
    let key = try P256PrivateKey.generate()
    var lengths = Set<Int>()
    for index in 0..<200 {
      let jose = try key.signature(for: Array("message \(index)".utf8))
      let der = try ES256Signature.der(fromJOSE: jose)
      lengths.insert(der.count)
      #expect(try ES256Signature.jose(fromDER: der) == jose)
      #expect(der.count <= 72 && der.count >= 8)
    }
    // 200 random signatures all but certainly include r or s with a high bit (DER 71 or 72).
    #expect(lengths.count > 1)
  }

  @Test("JOSE input of any length but 64 is refused", arguments: [0, 32, 63, 65, 70])
  func joseLength(length: Int) throws {
    let error = try #require(throws: CryptoError.self) {
      try ES256Signature.der(fromJOSE: [UInt8](repeating: 1, count: length))
    }
    #expect(error.kind == .invalidArgument)
    #expect(error.message.contains("64 bytes"))
  }

  @Test(
    "DER that is not one P-256 signature is refused",
    arguments: [
      [UInt8](),
      [0x30, 0x00],
      [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02, 0x00],  // trailing byte
      [0x04, 0x02, 0x01, 0x02],  // an OCTET STRING
      // r of 33 significant bytes: too large for P-256.
      [0x30, 0x27, 0x02, 0x22, 0x01] + [UInt8](repeating: 0x01, count: 33)
        + [0x02, 0x01, 0x01],
    ])
  func malformedDER(der: [UInt8]) throws {
    let error = try #require(throws: CryptoError.self) {
      try ES256Signature.jose(fromDER: der)
    }
    #expect(error.kind == .malformedInput)
  }
}
