import AppStoreServerAPI
import CryptoSupport
import Foundation
import Testing

/// `ASC_PRIVATE_KEY`: the key's PEM text instead of a path, as Apple's libraries and secret
/// stores hand it over; its text never appears in an error.
@Suite("ASC_PRIVATE_KEY: the key as text")
struct PrivateKeyTextTests {
  static let others = [
    "ASC_ISSUER_ID": "issuer", "ASC_KEY_ID": "KEY", "APP_BUNDLE_ID": "com.example.app",
  ]

  /// The base64 lines of a PEM block, without its armour.
  static func body(_ pem: String) -> [String] {
    pem.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.hasPrefix("-----") }
  }

  @Test("the PEM text signs like the file, and an escaped one-line value is accepted")
  func loadsText() throws {
    let key = try P256PrivateKey.generate()
    let pem = try key.pemRepresentation
    for text in [pem, pem.replacingOccurrences(of: "\n", with: #"\n"#)] {
      var variables = Self.others
      variables["ASC_PRIVATE_KEY"] = text
      let credentials = try APICredentials(environment: variables)
      #expect(credentials.privateKey.publicKey == key.publicKey)
      #expect(!"\(credentials)".contains(Self.body(pem)[0]))
    }
  }

  @Test("both ASC_PRIVATE_KEY_PATH and ASC_PRIVATE_KEY set: refused, naming both")
  func bothSet() throws {
    var variables = Self.others
    variables["ASC_PRIVATE_KEY"] = try P256PrivateKey.generate().pemRepresentation
    variables["ASC_PRIVATE_KEY_PATH"] = "/keys/AuthKey_KEY.p8"
    #expect {
      try APICredentials(environment: variables)
    } throws: { error in
      let message = "\(error)"
      return message.contains("ASC_PRIVATE_KEY_PATH") && message.contains("ASC_PRIVATE_KEY ")
        && !message.contains("BEGIN")
    }
  }

  @Test("neither set: the missing key is named with both of its variables")
  func neitherSet() {
    #expect {
      try APICredentials(environment: Self.others)
    } throws: { error in
      "\(error)".contains("set ASC_PRIVATE_KEY_PATH (or ASC_PRIVATE_KEY)")
    }
  }

  @Test(
    "a malformed key names ASC_PRIVATE_KEY and not its text",
    arguments: [
      // A damaged block: the armour is right, the body does not decode.
      "-----BEGIN PRIVATE KEY-----\nU0VDUkVUQk9EWVNIT1VMRE5PVExFQUtTRUNSRVRCT0RZ\n"
        + "-----END PRIVATE KEY-----\n",
      // No armour at all: a value pasted without its first line.
      "U0VDUkVUQk9EWVNIT1VMRE5PVExFQUtTRUNSRVRCT0RZ",
      // A certificate where the key should be.
      "-----BEGIN CERTIFICATE-----\nU0VDUkVUQk9EWVNIT1VMRE5PVExFQUtTRUNSRVRCT0RZ\n"
        + "-----END CERTIFICATE-----\n",
    ])
  func malformed(text: String) {
    var variables = Self.others
    variables["ASC_PRIVATE_KEY"] = text
    #expect {
      try APICredentials(environment: variables)
    } throws: { error in
      let message = "\(error)"
      return message.contains("ASC_PRIVATE_KEY:") && !message.contains("U0VDUkVU")
    }
  }
}
