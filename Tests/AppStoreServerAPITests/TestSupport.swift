import AppStoreServerAPI
import Chronology
import CryptoSupport
import Foundation
import Synchronization
import Testing

/// Fixed instants, so that no test depends on the wall clock.
enum Instant {
  static let day: Int64 = 86_400_000
  /// 2024-01-01T00:00:00Z: the test chains become valid.
  static let chainStart: Int64 = 1_704_067_200_000
  /// One year later: the test chains expire.
  static let chainEnd: Int64 = chainStart + 366 * day
  /// A signing instant inside the chains' validity.
  static let signed = Timestamp(millisecondsSince1970: chainStart + 30 * day + 12_345)
}

/// A test signing chain with the Apple extensions, shared by tests that do not alter it
/// (generating keys and certificates is the slowest part of these tests).
enum TestChain {
  static let bundleId = "com.example.app"
  static let appAppleId: Int64 = 1_234_567_890

  static let standard: CertificateAuthorityChain = make()

  static func make(
    _ edit: (inout CertificateAuthorityChain.Specification) -> Void = { _ in }
  ) -> CertificateAuthorityChain {
    var specification = CertificateAuthorityChain.Specification.appStoreLike(
      notBefore: Instant.chainStart, notAfter: Instant.chainEnd)
    edit(&specification)
    do {
      return try CertificateAuthorityChain.generate(specification)
    } catch {
      fatalError("the test chain cannot be generated: \(error)")
    }
  }

  static func verifier(
    trusting chain: CertificateAuthorityChain = standard,
    environment: AppStoreEnvironment = .production, appAppleId: Int64? = appAppleId,
    bundleId: String = bundleId
  ) throws -> SignedDataVerifier {
    try SignedDataVerifier(
      trustedRoots: [chain.root.certificate], bundleId: bundleId, appAppleId: appAppleId,
      environment: environment, now: { Instant.signed }, notice: { _ in })
  }
}

/// Sample payloads with every member set.
enum Sample {
  static func transaction(
    id: String = "2000000123456789", originalId: String = "2000000000000001",
    environment: AppStoreEnvironment = .production, signedDate: Timestamp = Instant.signed,
    productId: String = "com.example.monthly"
  ) -> JWSTransaction {
    JWSTransaction(
      transactionId: id, originalTransactionId: originalId, webOrderLineItemId: "2000000000000077",
      bundleId: TestChain.bundleId, productId: productId,
      subscriptionGroupIdentifier: "21000001",
      purchaseDate: Timestamp(millisecondsSince1970: 1_706_000_000_000),
      originalPurchaseDate: Timestamp(millisecondsSince1970: 1_705_000_000_000),
      expiresDate: Timestamp(millisecondsSince1970: 1_708_678_400_000), quantity: 1,
      type: .autoRenewableSubscription, appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138",
      inAppOwnershipType: .purchased, signedDate: signedDate, revocationReason: .appIssue,
      revocationDate: Timestamp(millisecondsSince1970: 1_707_000_000_000),
      revocationType: .refundProrated, revocationPercentage: 50_000, isUpgraded: false,
      offerType: .winBack, offerIdentifier: "WINBACK1", offerDiscountType: .payAsYouGo,
      offerPeriod: "P3M", environment: environment, storefront: "USA", storefrontId: "143441",
      transactionReason: .renewal, currency: "USD", price: 9_990,
      appTransactionId: "704289572311811111")
  }

  static func renewalInfo(environment: AppStoreEnvironment = .production) -> JWSRenewalInfo {
    JWSRenewalInfo(
      originalTransactionId: "2000000000000001", productId: "com.example.monthly",
      autoRenewProductId: "com.example.yearly", autoRenewStatus: .on,
      expirationIntent: .billingError, isInBillingRetryPeriod: true,
      gracePeriodExpiresDate: Timestamp(millisecondsSince1970: 1_708_000_000_000),
      priceIncreaseStatus: .accepted, offerType: .promotional, offerIdentifier: "PROMO",
      offerDiscountType: .freeTrial, offerPeriod: "P1W",
      renewalDate: Timestamp(millisecondsSince1970: 1_708_678_400_000), renewalPrice: 99_990,
      currency: "EUR",
      recentSubscriptionStartDate: Timestamp(millisecondsSince1970: 1_705_000_000_000),
      eligibleWinBackOfferIds: ["WB1", "WB2"], signedDate: Instant.signed,
      environment: environment, appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138",
      appTransactionId: "704289572311811111")
  }

  static func appTransaction(
    environment: AppStoreEnvironment = .production, appAppleId: Int64? = TestChain.appAppleId
  ) -> AppTransaction {
    AppTransaction(
      receiptType: environment, appAppleId: appAppleId, bundleId: TestChain.bundleId,
      applicationVersion: "42", versionExternalIdentifier: 834_289_833,
      receiptCreationDate: Timestamp(millisecondsSince1970: 1_706_000_000_000),
      originalPurchaseDate: Timestamp(millisecondsSince1970: 1_600_000_000_000),
      originalApplicationVersion: "1", deviceVerification: "AAAA", deviceVerificationNonce: "N",
      preorderDate: nil, appTransactionId: "704289572311811111", originalPlatform: .iOS,
      signedDate: Instant.signed)
  }
}

/// A wall clock and sleeper that tests move by hand: `sleep` advances the clock at once and
/// records the request, so back-off and rate limiting run instantly and deterministically.
final class ManualClock: Sendable {
  private let state: Mutex<(now: Int64, sleeps: [Int64])>

  init(_ start: Int64 = Instant.chainStart + 40 * Instant.day) {
    state = Mutex((start, []))
  }

  var now: Timestamp { Timestamp(millisecondsSince1970: state.withLock { $0.now }) }

  var sleeps: [Int64] { state.withLock { $0.sleeps } }

  func advance(by milliseconds: Int64) {
    state.withLock { $0.now += milliseconds }
  }

  func sleep(_ milliseconds: Int64) {
    state.withLock {
      $0.sleeps.append(milliseconds)
      $0.now += max(0, milliseconds)
    }
  }
}

/// A test's own App Store Connect credentials, with a fresh key.
func testCredentials() throws -> APICredentials {
  APICredentials(
    issuerId: "57246542-96fe-1a63-e053-0824d011072a", keyId: "2X9R4HXF34",
    privateKey: try P256PrivateKey.generate(), bundleId: TestChain.bundleId)
}

/// Decodes a base64url JSON segment of a token or JWS into a dictionary.
func decodeSegment(_ segment: Substring) throws -> [String: Any] {
  let json = try Base64URL.decode(segment)
  let object = try JSONSerialization.jsonObject(with: Data(json))
  return try #require(object as? [String: Any])
}

/// Writes bytes to a file.
func writeFile(_ bytes: [UInt8], to path: String) throws {
  try Data(bytes).write(to: URL(fileURLWithPath: path))
}

/// Asserts that `text` holds no 12-character run of the key's PEM body.
func expectNoKeyMaterial(
  in text: String, keyPEM: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  let body = Array(
    keyPEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined())
  for start in stride(from: 0, to: max(0, body.count - 12), by: 4) {
    let piece = String(body[start..<start + 12])
    #expect(!text.contains(piece), "key material leaked", sourceLocation: sourceLocation)
  }
}
