import AppStoreServerAPI
import Chronology
import CryptoSupport
import JSON

/// A signed value in one of Apple's exact shapes, for comparing verdicts with Apple's verifier.
struct ConformanceShape: Sendable {
  /// What the value is: `transaction`, `renewal`, `app` or `notification` (the verifier method).
  enum Kind: String, Sendable { case transaction, renewal, app, notification }

  let name: String
  let kind: Kind
  /// The environment of the verifier that judges it.
  let environment: AppStoreEnvironment
  let jws: String
  /// The verdict Apple's verifier must give, as Apple's `VerificationStatus` name.
  let expectedStatus: String

  /// Apple's `VerificationStatus` name for this project's verdict.
  static func appleStatus(of failure: VerificationFailure?) -> String {
    guard let failure else { return "OK" }
    switch failure.reason {
    case .chainLength: return "INVALID_CHAIN_LENGTH"
    case .bundleIdMismatch, .appAppleIdMismatch: return "INVALID_APP_IDENTIFIER"
    case .environmentMismatch: return "INVALID_ENVIRONMENT"
    case .malformed, .missingCertificateChain, .wrongAlgorithm, .untrustedChain,
      .missingAppleExtension, .certificateNotValidAtSignedDate, .badSignature:
      return "VERIFICATION_FAILURE"
    }
  }

  /// Every shape and flaw: a minimal renewal info (Apple's own test vector's members), an app
  /// transaction without `signedDate`, a notification and a transaction, each valid, for another
  /// bundle id, without `x5c`, tampered after signing, and for another environment.
  static func all(
    chain: CertificateAuthorityChain, bundleId: String, appAppleId: Int64, now: Timestamp
  ) throws -> [ConformanceShape] {
    let signed = now.millisecondsSince1970
    let payloads: [(Kind, (String, String) -> String)] = [
      (
        .renewal,
        { environment, bundle in
          // Renewal information names no bundle id; Apple's verifier checks only its
          // environment, so a bundle id member in it is ignored by both verifiers.
          bundle == bundleId
            ? #"{"environment":"\#(environment)","signedDate":\#(signed)}"#
            : #"{"environment":"\#(environment)","signedDate":\#(signed),"bundleId":"\#(bundle)"}"#
        }
      ),
      (
        .app,
        { environment, bundle in
          #"{"receiptType":"\#(environment)","appAppleId":\#(appAppleId),"bundleId":"\#(bundle)","applicationVersion":"1","versionExternalIdentifier":0,"receiptCreationDate":\#(signed),"originalPurchaseDate":\#(signed - 86_400_000),"originalApplicationVersion":"1","appTransactionId":"704000000000009999","originalPlatform":"iOS"}"#
        }
      ),
      (
        .notification,
        { environment, bundle in
          #"{"notificationType":"TEST","notificationUUID":"9ad56bd2-0bc6-42e0-af24-fd996d87a1e6","version":"2.0","signedDate":\#(signed),"data":{"appAppleId":\#(appAppleId),"bundleId":"\#(bundle)","environment":"\#(environment)"}}"#
        }
      ),
      (
        .transaction,
        { environment, bundle in
          #"{"transactionId":"2000000000999999","originalTransactionId":"2000000000999999","bundleId":"\#(bundle)","productId":"com.example.pro.monthly","purchaseDate":\#(signed),"originalPurchaseDate":\#(signed),"quantity":1,"type":"Non-Consumable","inAppOwnershipType":"PURCHASED","signedDate":\#(signed),"environment":"\#(environment)","transactionReason":"PURCHASE","storefront":"USA","storefrontId":"143441","price":990,"currency":"USD"}"#
        }
      ),
    ]
    let signer = JWSSigner(chain: chain)
    let bare = JWSSigner(
      privateKey: chain.leaf.privateKey, header: JWSHeader(algorithm: "ES256", x5c: [], type: "JWT")
    )
    var shapes: [ConformanceShape] = []
    for (kind, payload) in payloads {
      func add(_ flaw: String, _ jws: String, _ expected: String) {
        shapes.append(
          ConformanceShape(
            name: "\(kind.rawValue) \(flaw)", kind: kind, environment: .production, jws: jws,
            expectedStatus: expected))
      }
      let valid = payload("Production", bundleId)
      add("valid", try signer.sign(payload: Array(valid.utf8)), "OK")
      add(
        "for another bundle id",
        try signer.sign(payload: Array(payload("Production", "com.example.wrong").utf8)),
        kind == .renewal ? "OK" : "INVALID_APP_IDENTIFIER")
      add("without x5c", try bare.sign(payload: Array(valid.utf8)), "VERIFICATION_FAILURE")
      let parts = try signer.sign(payload: Array(valid.utf8)).split(separator: ".")
      let altered = Base64URL.encode(Array(payload("Production", bundleId).utf8) + [0x20])
      add("tampered", "\(parts[0]).\(altered).\(parts[2])", "VERIFICATION_FAILURE")
      add(
        "from the other environment",
        try signer.sign(payload: Array(payload("Sandbox", bundleId).utf8)), "INVALID_ENVIRONMENT")
    }
    return shapes
  }
}
