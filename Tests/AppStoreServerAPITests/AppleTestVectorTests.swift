import AppStoreServerAPI
import Chronology
import CryptoSupport
import Foundation
import Testing

/// Apple's own signed test vectors (`Fixtures/AppleTestVectors/`, from Apple's App Store Server
/// Library; origin and licence in its README) against this project's verifier.
///
/// The data and the expected verdicts come from Apple: each test expects what Apple's own tests
/// expect of Apple's verifier (`test_payload_verification.py` and its equivalents), with the
/// reason this project names for it. The verifier judging them is this project's.
@Suite("Apple's test vectors")
struct AppleTestVectorTests {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/AppleTestVectors")

  /// Vectors without `signedDate` are validated at now: a fixed instant inside their chains.
  static let now = Timestamp(millisecondsSince1970: 1_717_200_000_000)

  static func vector(_ name: String) throws -> String {
    try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
  }

  static func roots() throws -> [X509Certificate] {
    try ["vectors-root-a.der", "vectors-root-b.der"].flatMap {
      try X509Certificate.certificates(contentsOfFile: directory.appendingPathComponent($0).path)
    }
  }

  /// A verifier as Apple's tests make one: bundle id `com.example`, app Apple id 1234.
  static func verifier(
    _ environment: AppStoreEnvironment, bundleId: String = "com.example", appAppleId: Int64 = 1234
  ) throws -> SignedDataVerifier {
    try SignedDataVerifier(
      trustedRoots: roots(), bundleId: bundleId, appAppleId: appAppleId, environment: environment,
      now: { now }, notice: { _ in })
  }

  func failure(_ body: () throws -> Void) -> VerificationFailure? {
    do {
      try body()
      return nil
    } catch {
      return error as? VerificationFailure
    }
  }

  @Test("renewalInfo and transactionInfo decode in sandbox")
  func decodes() throws {
    let sandbox = try Self.verifier(.sandbox)
    let renewal = try sandbox.verifyRenewalInfo(Self.vector("renewalInfo"))
    #expect(renewal.payload.environment == .sandbox)
    let transaction = try sandbox.verifyTransaction(Self.vector("transactionInfo"))
    #expect(transaction.payload.environment == .sandbox)
    #expect(transaction.payload.bundleId == "com.example")
  }

  @Test(
    "testNotification decodes in sandbox; production rejects it for its environment, or an app Apple id 1235 for the app"
  )
  func testNotification() throws {
    let jws = try Self.vector("testNotification")
    let notification = try Self.verifier(.sandbox).verifyNotification(jws)
    #expect(notification.payload.notificationType == .test)
    let production = try Self.verifier(.production)
    #expect(
      failure { _ = try production.verifyNotification(jws) }
        == .environmentMismatch(expected: .production, found: .sandbox))
    let otherApp = try Self.verifier(.production, appAppleId: 1235)
    #expect(failure { _ = try otherApp.verifyNotification(jws) }?.reason == .appAppleIdMismatch)
  }

  @Test("wrongBundleId is rejected for its bundle id, though it carries no signedDate")
  func wrongBundleId() throws {
    let verifier = try Self.verifier(.sandbox, bundleId: "com.examplex")
    let jws = try Self.vector("wrongBundleId")
    #expect(
      failure { _ = try verifier.verifyNotification(jws) }
        == .bundleIdMismatch(expected: "com.examplex", found: "com.example.wrong"))
  }

  @Test("missingX5CHeaderClaim is rejected for its missing x5c")
  func missingX5C() throws {
    let verifier = try Self.verifier(.sandbox)
    let jws = try Self.vector("missingX5CHeaderClaim")
    #expect(
      failure { _ = try verifier.verifyNotification(jws) }
        == .missingCertificateChain)
  }

  @Test("a.b.c.d and a.b.c are malformed", arguments: ["a.b.c.d", "a.b.c"])
  func malformed(text: String) throws {
    let verifier = try Self.verifier(.sandbox)
    #expect(failure { _ = try verifier.verifyNotification(text) }?.reason == .malformed)
  }

  @Test("decode recognises the minimal renewalInfo as renewal information and verifies it")
  func decodeRenewalInfo() throws {
    let report = SignedValueInspector.inspect(
      try Self.vector("renewalInfo"), trustedRoots: try Self.roots(), bundleId: "com.example",
      environment: .sandbox, appAppleId: nil, now: Self.now)
    #expect(report.text.contains("Kind: renewal info"), "\(report.text)")
    #expect(report.text.contains("Verdict: valid"), "\(report.text)")
    #expect(report.exitStatus == 0)
  }
}
