import AppStoreServerAPI
import Chronology
import CryptoSupport
import Foundation
import Testing

@Suite("Request tokens")
struct JWTSignerTests {
  @Test("a token has the header, claims and a JOSE signature Apple expects")
  func tokenShape() throws {
    let credentials = try testCredentials()
    let signer = try JWTSigner(credentials: credentials)
    let issued = Timestamp(millisecondsSince1970: 1_706_000_000_999)
    let token = try signer.token(issuedAt: issued)
    let parts = token.value.split(separator: ".")
    try #require(parts.count == 3)
    let header = try decodeSegment(parts[0])
    #expect(header["alg"] as? String == "ES256")
    #expect(header["kid"] as? String == credentials.keyId)
    #expect(header["typ"] as? String == "JWT")
    #expect(header.count == 3)
    let claims = try decodeSegment(parts[1])
    #expect(claims["iss"] as? String == credentials.issuerId)
    #expect(claims["aud"] as? String == "appstoreconnect-v1")
    #expect(claims["bid"] as? String == credentials.bundleId)
    #expect((claims["iat"] as? NSNumber)?.int64Value == 1_706_000_000)
    #expect((claims["exp"] as? NSNumber)?.int64Value == 1_706_000_300)
    #expect(token.expiresAt == Timestamp(secondsSince1970: 1_706_000_300))
    let signature = try Base64URL.decode(parts[2])
    #expect(signature.count == 64)
    #expect(
      credentials.privateKey.publicKey.isValidSignature(
        signature, for: Array("\(parts[0]).\(parts[1])".utf8)))
  }

  @Test(
    "the lifetime is at most 60 minutes and at least a second",
    arguments: [
      (Int64(0), false), (999, false), (1_000, true), (3_600_000, true), (3_600_001, false),
    ])
  func lifetimeBounds(lifetime: Int64, accepted: Bool) throws {
    let credentials = try testCredentials()
    if accepted {
      #expect(try JWTSigner(credentials: credentials, lifetime: lifetime).lifetime == lifetime)
    } else {
      #expect(throws: ConfigurationError.self) {
        _ = try JWTSigner(credentials: credentials, lifetime: lifetime)
      }
    }
  }

  @Test("the provider reuses a token until shortly before expiry, then signs a new one")
  func reuseAndResign() throws {
    let clock = ManualClock()
    let provider = BearerTokenProvider(
      signer: try JWTSigner(credentials: testCredentials()), now: { clock.now })
    #expect(provider.refreshMargin == 60_000)
    let first = try provider.token()
    clock.advance(by: 3 * 60_000)
    #expect(try provider.token() == first)
    clock.advance(by: 59_000)  // 4 min 59 s after issue: 61 s left, still outside the margin
    #expect(try provider.token() == first)
    clock.advance(by: 2_000)  // 59 s left: inside the margin
    let second = try provider.token()
    #expect(second != first)
    #expect(second.issuedAt > first.issuedAt)
  }

  @Test("a rejected token is replaced on the next request; a newer one is kept")
  func invalidate() throws {
    let clock = ManualClock()
    let provider = BearerTokenProvider(
      signer: try JWTSigner(credentials: testCredentials()), now: { clock.now })
    let first = try provider.token()
    clock.advance(by: 1_000)
    provider.invalidate(first)
    let second = try provider.token()
    #expect(second != first)
    provider.invalidate(first)
    #expect(try provider.token() == second)
  }

  @Test("neither the key nor the token appears in descriptions or dumps")
  func redaction() throws {
    let credentials = try testCredentials()
    let token = try JWTSigner(credentials: credentials).token(issuedAt: Instant.signed)
    let keyPEM = try credentials.privateKey.pemRepresentation
    var dumped = ""
    dump(credentials, to: &dumped)
    dump(token, to: &dumped)
    let texts = [
      String(describing: credentials), String(reflecting: credentials), String(describing: token),
      String(reflecting: token), dumped,
    ]
    for text in texts {
      #expect(!text.contains(token.value))
      #expect(!text.contains(token.value.split(separator: ".")[2]))
      expectNoKeyMaterial(in: text, keyPEM: keyPEM)
    }
  }
}
