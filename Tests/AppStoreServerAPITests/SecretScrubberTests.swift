import AppStoreServerAPI
import Testing

/// Our own scrubber against hand-written secrets (a check of our code only).
@Suite("SecretScrubber")
struct SecretScrubberTests {
  static let jwt =
    "eyJhbGciOiJFUzI1NiIsImtpZCI6IjJYOVI0SFhGMzQiLCJ0eXAiOiJKV1QifQ"
    + ".eyJpc3MiOiI1N2JiYzFlMy0wMDAwIiwiaWF0IjoxNjIzMDg1MjAwfQ.c2lnbmF0dXJl"

  @Test("bearer credentials, JWTs, PEM blocks and long base64 runs are removed")
  func removes() {
    #expect(
      SecretScrubber.scrub("denied; Authorization: Bearer \(Self.jwt) was sent")
        == "denied; Authorization: Bearer <redacted> was sent")
    #expect(SecretScrubber.scrub("token \(Self.jwt).") == "token <redacted token>.")
    let pem =
      "-----BEGIN PRIVATE KEY-----\nMIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQg\n-----END PRIVATE KEY-----"
    #expect(SecretScrubber.scrub("key was \(pem) here") == "key was <redacted key> here")
    let material = String(repeating: "MIGTAgEAMBMGByqG", count: 5)
    #expect(SecretScrubber.scrub("raw \(material) end") == "raw <redacted> end")
  }

  @Test("ordinary error text, ids and UUIDs are left alone")
  func keeps() {
    for text in [
      "Transaction id not found.", "2000000123456789",
      "transaction_history for 2000000123456789 in Production failed with HTTP 404",
      "request 3d8a5c4e-1a2b-4c3d-9e8f-0123456789ab was throttled",
    ] {
      #expect(SecretScrubber.scrub(text) == text)
    }
  }
}
