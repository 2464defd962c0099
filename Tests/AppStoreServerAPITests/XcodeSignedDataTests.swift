import AppStoreServerAPI
import Chronology
import CryptoSupport
import Foundation
import Testing

/// Values StoreKit testing in Xcode signs, made here in the shapes of Apple's own Xcode test
/// vectors (a header with `kid` `Apple_Xcode_Key` and one self-signed certificate named
/// "StoreKit Testing in Xcode" in `x5c`; environment `Xcode` or `LocalTesting`; dates with
/// fractions of a millisecond; ids `0`) by this project's own certificate and JWS tools — not
/// copied. Apple's libraries accept such values in the `Xcode` and `LocalTesting` environments
/// (without verifying them, the data not being the App Store's); this verifier accepts them
/// against the certificate the team configures. Our own code on both sides: the shapes are
/// Apple's, the verdicts this project's.
@Suite("StoreKit testing in Xcode: signed values")
struct XcodeSignedDataTests {
  static let bundleId = "com.example.naturelab.example"

  /// Xcode's own signing certificate as a team exports it: one self-signed certificate.
  static let xcode: CertifiedKey = {
    do {
      return try CertifiedKey.selfSigned(
        CertificateTemplate(
          subject: DistinguishedName(
            commonName: "StoreKit Testing in Xcode", organization: "StoreKit Testing in Xcode"),
          notBefore: Instant.chainStart, notAfter: Instant.chainEnd, isCertificateAuthority: true,
          pathLengthConstraint: 0, keyUsage: [.digitalSignature]))
    } catch {
      fatalError("the Xcode-like certificate cannot be made: \(error)")
    }
  }()

  /// Signs a payload as Xcode does: `kid`, `typ`, `alg` and the one certificate.
  static func sign(_ json: String, by signer: CertifiedKey = xcode) throws -> String {
    let header = JWSHeader(
      algorithm: "ES256", x5c: [signer.certificate.base64Encoded],
      keyId: "Apple_Xcode_Key", type: "JWT")
    return try JWSSigner(privateKey: signer.privateKey, header: header).sign(
      payload: Array(json.utf8))
  }

  /// A millisecond inside the certificate's validity, and the same with a fraction.
  static let purchase: Int64 = Instant.chainStart + 20 * Instant.day + 49
  static var purchaseText: String { "\(purchase).7297" }

  static func transaction(environment: String = "Xcode") -> String {
    """
    {"inAppOwnershipType":"PURCHASED","purchaseDate":\(purchaseText),"subscriptionGroupIdentifier":"6F3A93AB","signedDate":\(purchase + 7).485,"originalPurchaseDate":\(purchaseText),"isUpgraded":false,"deviceVerification":"c2FtcGxl","offerType":1,"quantity":1,"transactionId":"0","type":"Auto-Renewable Subscription","transactionReason":"PURCHASE","productId":"pass.premium","expiresDate":\(purchase + 30 * Instant.day).7297,"environment":"\(environment)","storefrontId":"143441","originalTransactionId":"0","bundleId":"\(bundleId)","deviceVerificationNonce":"5c1f3e0a-2b47-4c8e-9a61-0d7e2f4b8c93","webOrderLineItemId":"0","storefront":"USA"}
    """
  }

  static let renewalInfo = """
    {"expirationIntent":null,"originalTransactionId":"0","autoRenewProductId":"pass.premium","productId":"pass.premium","autoRenewStatus":1,"signedDate":\(purchase + 600).2,"environment":"Xcode","recentSubscriptionStartDate":\(purchaseText),"renewalDate":\(purchase + 30 * Instant.day).7297}
    """

  static let appTransaction = """
    {"bundleId":"\(bundleId)","applicationVersion":"1","receiptCreationDate":\(purchase + 900).25,"originalPurchaseDate":-62135769600000,"originalApplicationVersion":"1","deviceVerification":"c2FtcGxl","deviceVerificationNonce":"5c1f3e0a-2b47-4c8e-9a61-0d7e2f4b8c93","receiptType":"Xcode"}
    """

  static func verifier(
    _ environment: AppStoreEnvironment, trusting roots: [X509Certificate] = [xcode.certificate]
  ) throws -> SignedDataVerifier {
    try SignedDataVerifier(
      trustedRoots: roots, bundleId: bundleId, appAppleId: nil, environment: environment,
      now: { Instant.signed }, notice: { _ in })
  }

  func failure(_ body: () throws -> Void) -> VerificationFailure? {
    do {
      try body()
      return nil
    } catch {
      return error as? VerificationFailure
    }
  }

  @Test("a transaction, renewal info and app transaction verify against Xcode's certificate")
  func verifies() throws {
    let verifier = try Self.verifier(.xcode)
    let transaction = try verifier.verifyTransaction(Self.sign(Self.transaction())).payload
    #expect(transaction.transactionId == "0")
    #expect(transaction.environment == .xcode)
    // Fractions of a millisecond are dropped, as Apple's libraries compare these dates.
    #expect(transaction.purchaseDate?.millisecondsSince1970 == Self.purchase)
    #expect(transaction.signedDate?.millisecondsSince1970 == Self.purchase + 7)
    #expect(
      transaction.expiresDate?.millisecondsSince1970 == Self.purchase + 30 * Instant.day)

    let renewal = try verifier.verifyRenewalInfo(Self.sign(Self.renewalInfo)).payload
    #expect(renewal.renewalDate?.millisecondsSince1970 == Self.purchase + 30 * Instant.day)
    #expect(renewal.environment == .xcode)

    let app = try verifier.verifyAppTransaction(Self.sign(Self.appTransaction)).payload
    #expect(app.receiptType == .xcode)
    #expect(app.appAppleId == nil)
    #expect(app.originalPurchaseDate?.millisecondsSince1970 == -62_135_769_600_000)
    #expect(app.receiptCreationDate?.millisecondsSince1970 == Self.purchase + 900)
  }

  @Test("local StoreKit testing (LocalTesting) verifies the same way")
  func localTesting() throws {
    let verifier = try Self.verifier(.localTesting)
    let transaction = try verifier.verifyTransaction(
      Self.sign(Self.transaction(environment: "LocalTesting"))
    ).payload
    #expect(transaction.environment == .localTesting)
    // The environment is still checked: an Xcode value is not local testing's.
    #expect(
      failure { _ = try verifier.verifyTransaction(Self.sign(Self.transaction())) }?.reason
        == .environmentMismatch)
  }

  @Test("refused: another certificate, an altered value, the App Store's rules, another app")
  func refusals() throws {
    let jws = try Self.sign(Self.transaction())
    // Trusting the App Store-like test chain only: Xcode's certificate is not trusted.
    let otherRoot = try Self.verifier(.xcode, trusting: [TestChain.standard.root.certificate])
    #expect(failure { _ = try otherRoot.verifyTransaction(jws) }?.reason == .untrustedChain)
    // Signed by a key that is not the certificate's.
    let impostor = try CertifiedKey.selfSigned(
      CertificateTemplate(
        subject: DistinguishedName(commonName: "StoreKit Testing in Xcode"),
        notBefore: Instant.chainStart, notAfter: Instant.chainEnd, isCertificateAuthority: true,
        keyUsage: [.digitalSignature]))
    let header = JWSHeader(
      algorithm: "ES256",
      x5c: [Self.xcode.certificate.base64Encoded],
      keyId: "Apple_Xcode_Key", type: "JWT")
    let forged = try JWSSigner(privateKey: impostor.privateKey, header: header).sign(
      payload: Array(Self.transaction().utf8))
    #expect(
      failure { _ = try Self.verifier(.xcode).verifyTransaction(forged) }?.reason == .badSignature)
    // Production and sandbox keep the App Store's rules: three certificates, Apple's.
    let production = try Self.verifier(.production)
    #expect(failure { _ = try production.verifyTransaction(jws) }?.reason == .chainLength)
    // Another app's bundle id.
    let otherApp = try SignedDataVerifier(
      trustedRoots: [Self.xcode.certificate], bundleId: "com.example.other", appAppleId: nil,
      environment: .xcode, now: { Instant.signed }, notice: { _ in })
    #expect(failure { _ = try otherApp.verifyTransaction(jws) }?.reason == .bundleIdMismatch)
  }

  @Test("decode --environment Xcode verifies with the exported certificate, and says how without")
  func decode() throws {
    let jws = try Self.sign(Self.transaction())
    #expect(AppStoreEnvironment.namedForSignedData("xcode") == .xcode)
    #expect(AppStoreEnvironment.namedForSignedData("LocalTesting") == .localTesting)
    #expect(AppStoreEnvironment.namedForSignedData("local-testing") == .localTesting)
    #expect(AppStoreEnvironment.namedForSignedData("Sandbox") == .sandbox)
    #expect(AppStoreEnvironment.namedForSignedData("staging") == nil)
    // The API's environments stay production and sandbox.
    #expect(AppStoreEnvironment.named("xcode") == nil)

    let valid = SignedValueInspector.inspect(
      jws, trustedRoots: [Self.xcode.certificate], bundleId: Self.bundleId, environment: .xcode,
      appAppleId: nil, now: Instant.signed)
    #expect(valid.exitStatus == 0, "\(valid.text)")
    #expect(valid.text.contains("Verdict: valid"))
    #expect(valid.text.contains("x5c: 1 certificate(s)"))
    // Without --environment, the payload's own (Xcode) is taken.
    let fromPayload = SignedValueInspector.inspect(
      jws, trustedRoots: [Self.xcode.certificate], bundleId: nil, environment: nil,
      appAppleId: nil, now: Instant.signed)
    #expect(fromPayload.exitStatus == 0)
    let unverified = SignedValueInspector.inspect(
      jws, trustedRoots: [], bundleId: nil, environment: .xcode, appAppleId: nil,
      now: Instant.signed)
    #expect(unverified.exitStatus == 1)
    #expect(unverified.text.contains("export it from Xcode"))
  }

  @Test("dates with fractions of a millisecond are read down to their millisecond")
  func fractionalDates() throws {
    func purchase(_ text: String) throws -> Int64? {
      try JWSTransaction.decode(json: Array(#"{"purchaseDate":\#(text)}"#.utf8)).purchaseDate?
        .millisecondsSince1970
    }
    #expect(try purchase("1697679936049.7297") == 1_697_679_936_049)
    #expect(try purchase(#""1697679936049.5""#) == 1_697_679_936_049)
    #expect(try purchase("1697679936049.0") == 1_697_679_936_049)
    #expect(try purchase("-1.5") == -2)
    #expect(try purchase("-62135769600000") == -62_135_769_600_000)
    #expect(throws: (any Error).self) { try purchase(#""yesterday""#) }
    #expect(throws: (any Error).self) { try purchase("1e400") }
  }
}
