import CryptoSupport
import Testing

@Suite("SHA-256")
struct SHA256Tests {
  // FIPS 180-2 / NIST example vectors.
  static let vectors: [(String, String)] = [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
  ]

  @Test("one-shot digests match the published vectors", arguments: vectors)
  func oneShot(input: String, expected: String) {
    #expect(SHA256.hexDigest(Array(input.utf8)) == expected)
    #expect(SHA256.hexDigest(input.utf8) == expected)
    #expect(SHA256.hexDigest(Array(input.utf8), uppercase: true) == expected.uppercased())
    #expect(SHA256.hash(Array(input.utf8)).count == 32)
  }

  @Test("a million 'a' through the streaming hasher, in uneven pieces")
  func streaming() throws {
    let hasher = try SHA256Hasher()
    var remaining = 1_000_000
    var piece = 1
    while remaining > 0 {
      let count = min(piece, remaining)
      try hasher.update([UInt8](repeating: UInt8(ascii: "a"), count: count))
      remaining -= count
      piece = piece * 3 + 1
    }
    #expect(
      Hex.encode(try hasher.finalize())
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test("streaming equals one-shot for every split point of a short input")
  func splits() throws {
    let input = Array("The quick brown fox jumps over the lazy dog".utf8)
    for split in 0...input.count {
      let hasher = try SHA256Hasher()
      try hasher.update(input[..<split])
      try hasher.update(input[split...])
      #expect(try hasher.finalize() == SHA256.hash(input))
    }
  }

  @Test("a finalized hasher refuses further use")
  func finalizedOnce() throws {
    let hasher = try SHA256Hasher()
    _ = try hasher.finalize()
    #expect(throws: CryptoError.self) { try hasher.finalize() }
    #expect(throws: CryptoError.self) { try hasher.update([1]) }
  }

  @Test("secure random bytes have the requested length and differ between calls")
  func random() throws {
    #expect(try SecureRandom.bytes(count: 0) == [])
    let first = try SecureRandom.bytes(count: 32)
    let second = try SecureRandom.bytes(count: 32)
    #expect(first.count == 32)
    #expect(first != second)
    #expect(throws: CryptoError.self) { try SecureRandom.bytes(count: -1) }
  }
}
