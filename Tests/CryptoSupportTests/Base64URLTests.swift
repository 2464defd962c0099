import CryptoSupport
import Foundation
import Testing

@Suite("Base64URL")
struct Base64URLTests {
  // RFC 4648 §10 test vectors, without padding.
  static let vectors: [(String, String)] = [
    ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"),
    ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
  ]

  @Test("encodes and decodes the RFC 4648 vectors", arguments: vectors)
  func encodesVectors(plain: String, encoded: String) throws {
    #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
    #expect(try Base64URL.decode(encoded) == Array(plain.utf8))
    #expect(try Base64URL.decode(utf8: Array(encoded.utf8)[...]) == Array(plain.utf8))
  }

  @Test("uses - and _ where standard base64 uses + and /")
  func urlAlphabet() throws {
    let bytes: [UInt8] = [0xFB, 0xFF, 0xBF]
    #expect(Data(bytes).base64EncodedString() == "+/+/")
    #expect(Base64URL.encode(bytes) == "-_-_")
    #expect(try Base64URL.decode("-_-_") == bytes)
  }

  @Test("accepts correct padding", arguments: [("Zg==", "f"), ("Zm8=", "fo"), ("Zm9v", "foo")])
  func padding(encoded: String, plain: String) throws {
    #expect(try Base64URL.decode(encoded) == Array(plain.utf8))
  }

  @Test(
    "rejects what is not canonical base64url",
    arguments: [
      ("Zm9v+", "'+' at offset 4"),
      ("Zm9v/w", "'/' at offset 4"),
      ("Zm 9v", "byte 0x20 at offset 2"),
      ("Zm9v\n", "byte 0x0a at offset 4"),
      ("Z", "cannot encode whole bytes"),
      ("Zm9vY", "cannot encode whole bytes"),
      ("Zh", "unused low bits"),
      ("Zm9", "unused low bits"),
      ("Zg=", "padding"),
      ("Zg===", "padding"),
      ("Zm8==", "padding"),
      ("Zg==Zg==", "'=' at offset 2"),
      ("=", "padding"),
      ("Zé", "byte 0xc3 at offset 1"),
    ])
  func rejects(text: String, reason: String) throws {
    let error = try #require(throws: CryptoError.self) { try Base64URL.decode(text) }
    #expect(error.kind == .malformedInput)
    #expect(error.message.contains(reason), "\(error.message)")
  }

  @Test("round-trips every length up to 300 and agrees with Foundation's base64")
  func roundTrip() throws {
    for length in 0...300 {
      let bytes = try SecureRandom.bytes(count: length)
      let encoded = Base64URL.encode(bytes)
      #expect(!encoded.contains("="))
      #expect(try Base64URL.decode(encoded) == bytes)
      let standard = Data(bytes).base64EncodedString()
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
      #expect(encoded == standard)
    }
  }
}
