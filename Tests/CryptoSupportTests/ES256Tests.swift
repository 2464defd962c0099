import CryptoSupport
import Testing

@Suite("ES256 signing and verification")
struct ES256Tests {
  let key: P256PrivateKey
  let message = Array(#"eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJ0ZXN0In0"#.utf8)

  init() throws {
    key = try P256PrivateKey.generate()
  }

  @Test("a signature is 64 bytes and verifies with the matching public key")
  func roundTrip() throws {
    let signature = try key.signature(for: message)
    #expect(signature.count == 64)
    #expect(key.publicKey.isValidSignature(signature, for: message))
    // Accepts any byte sequence type for the message and signature.
    #expect(key.publicKey.isValidSignature(signature[...], for: message[...]))
    #expect(
      key.publicKey.isValidSignature(signature, for: String(decoding: message, as: UTF8.self).utf8))
  }

  @Test("signatures are randomized, and each one verifies")
  func randomized() throws {
    let first = try key.signature(for: message)
    let second = try key.signature(for: message)
    #expect(first != second)
    #expect(key.publicKey.isValidSignature(first, for: message))
    #expect(key.publicKey.isValidSignature(second, for: message))
  }

  @Test("any changed byte of the message fails", arguments: [0, 7, 20, 39])
  func tamperedMessage(index: Int) throws {
    let signature = try key.signature(for: message)
    var tampered = message
    tampered[index] ^= 0x01
    #expect(!key.publicKey.isValidSignature(signature, for: tampered))
  }

  @Test("any changed byte of r or s fails", arguments: [0, 31, 32, 63])
  func tamperedSignature(index: Int) throws {
    var signature = try key.signature(for: message)
    signature[index] ^= 0x80
    #expect(!key.publicKey.isValidSignature(signature, for: message))
  }

  @Test("another key's signature fails")
  func wrongKey() throws {
    let other = try P256PrivateKey.generate()
    let signature = try other.signature(for: message)
    #expect(!key.publicKey.isValidSignature(signature, for: message))
  }

  @Test("only exactly 64 bytes are accepted", arguments: [0, 1, 63, 65, 72, 128])
  func wrongLength(length: Int) throws {
    let signature = try key.signature(for: message)
    let resized = Array((signature + signature + signature).prefix(length))
    #expect(!key.publicKey.isValidSignature(resized, for: message))
  }

  @Test("the DER form of a valid signature is not accepted in place of the JOSE form")
  func derIsNotJOSE() throws {
    let signature = try key.signature(for: message)
    let der = try ES256Signature.der(fromJOSE: signature)
    #expect(!key.publicKey.isValidSignature(der, for: message))
  }

  @Test("r or s of zero, or of the group order, is rejected")
  func outOfRange() throws {
    let signature = try key.signature(for: message)
    let zeros = [UInt8](repeating: 0, count: 32)
    // The order n of the P-256 group.
    let order: [UInt8] = [
      0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
      0xFF,
      0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25,
      0x51,
    ]
    let r = Array(signature.prefix(32))
    let s = Array(signature.suffix(32))
    #expect(!key.publicKey.isValidSignature(zeros + s, for: message))
    #expect(!key.publicKey.isValidSignature(r + zeros, for: message))
    #expect(!key.publicKey.isValidSignature(order + s, for: message))
    #expect(!key.publicKey.isValidSignature(r + order, for: message))
  }

  @Test("verifies a signature made by the openssl command line (DER converted to JOSE)")
  func interoperatesWithOpenSSL() throws {
    let publicKey = try P256PublicKey(pemRepresentation: Fixture.text("p256-public.pem"))
    let message = try Fixture.bytes("openssl-signed-message.txt")
    let jose = try ES256Signature.jose(fromDER: Fixture.bytes("openssl-signed-message.sig.der"))
    #expect(publicKey.isValidSignature(jose, for: message))
    #expect(!publicKey.isValidSignature(jose, for: message + [0x0A]))
  }

  @Test("one key verifies correctly from many concurrent tasks")
  func concurrentVerification() async throws {
    let publicKey = key.publicKey
    var cases: [(signature: [UInt8], message: [UInt8], expected: Bool)] = []
    for index in 0..<64 {
      let message = Array("message \(index)".utf8)
      let signature = try key.signature(for: message)
      cases.append((signature, message, true))
      cases.append((signature, message + [1], false))
    }
    let snapshot = cases
    let mismatches = await withTaskGroup(of: Int.self) { group in
      for worker in 0..<8 {
        group.addTask {
          var mismatches = 0
          for round in 0..<4 {
            for (index, item) in snapshot.enumerated() where (index + round + worker) % 2 == 0 {
              if publicKey.isValidSignature(item.signature, for: item.message) != item.expected {
                mismatches += 1
              }
            }
          }
          return mismatches
        }
      }
      return await group.reduce(0, +)
    }
    #expect(mismatches == 0)
  }

  @Test("one key signs correctly from many concurrent tasks")
  func concurrentSigning() async throws {
    let key = self.key
    let results = await withTaskGroup(of: Bool.self) { group in
      for index in 0..<32 {
        group.addTask {
          let message = Array("message \(index)".utf8)
          guard let signature = try? key.signature(for: message) else { return false }
          return key.publicKey.isValidSignature(signature, for: message)
        }
      }
      return await group.reduce(into: [Bool]()) { $0.append($1) }
    }
    #expect(results.count == 32)
    #expect(results.allSatisfy { $0 })
  }
}
