import AppStoreServerAPI
import Chronology
import CryptoSupport
import Foundation
import Synchronization
import TestDirectories
import Testing

@Suite("Signed data verification")
struct SignedDataVerifierTests {
  let chain = TestChain.standard

  func sign(
    _ payload: some JSONRepresentable, with chain: CertificateAuthorityChain = TestChain.standard
  ) throws -> String {
    try JWSSigner(chain: chain).sign(payload)
  }

  /// The verification failure `body` throws; any other error is recorded as an issue.
  func failure(_ body: () throws -> Void) -> VerificationFailure? {
    do {
      try body()
      return nil
    } catch let failure as VerificationFailure {
      return failure
    } catch {
      Issue.record("expected a VerificationFailure, got \(error)")
      return nil
    }
  }

  // MARK: - Success

  @Test("a transaction signed by a trusted chain verifies and keeps its raw JWS")
  func validTransaction() throws {
    let jws = try sign(Sample.transaction())
    let verified = try TestChain.verifier().verifyTransaction(jws)
    #expect(verified.payload == Sample.transaction())
    #expect(verified.jws == jws)
  }

  @Test("renewal info, app transaction and a notification with nested data verify")
  func otherKinds() throws {
    let verifier = try TestChain.verifier()
    let renewal = try verifier.verifyRenewalInfo(sign(Sample.renewalInfo()))
    #expect(renewal.payload == Sample.renewalInfo())
    let app = try verifier.verifyAppTransaction(sign(Sample.appTransaction()))
    #expect(app.payload.appTransactionId == "704289572311811111")

    let transactionJWS = try sign(Sample.transaction())
    let renewalJWS = try sign(Sample.renewalInfo())
    let notification = NotificationPayload(
      notificationType: .didRenew, notificationUUID: "n-1", version: "2.0",
      signedDate: Instant.signed,
      data: NotificationData(
        appAppleId: TestChain.appAppleId, bundleId: TestChain.bundleId, environment: .production,
        signedTransactionInfo: transactionJWS, signedRenewalInfo: renewalJWS, status: .active))
    let verified = try verifier.verifyNotification(sign(notification))
    #expect(verified.payload.notificationType == .didRenew)
    #expect(verified.payload.data?.transaction?.jws == transactionJWS)
    #expect(verified.payload.data?.transaction?.payload == Sample.transaction())
    #expect(verified.payload.data?.renewalInfo?.payload == Sample.renewalInfo())
  }

  @Test("a notification whose nested transaction is tampered is rejected")
  func nestedTampering() throws {
    let good = try sign(Sample.transaction())
    let parts = good.split(separator: ".")
    var other = Sample.transaction()
    other.productId = "com.example.lifetime"
    let forged = "\(parts[0]).\(Base64URL.encode(other.jsonBytes())).\(parts[2])"
    let notification = NotificationPayload(
      notificationType: .refund, signedDate: Instant.signed,
      data: NotificationData(
        appAppleId: TestChain.appAppleId, bundleId: TestChain.bundleId, environment: .production,
        signedTransactionInfo: forged))
    let verifier = try TestChain.verifier()
    let jws = try sign(notification)
    #expect(failure { _ = try verifier.verifyNotification(jws) } == .badSignature)
  }

  @Test("a leaf expired today still verifies at the signedDate inside its validity")
  func expiredLeafValidAtSignedDate() throws {
    // The leaf's validity ends 10 days after the start; "now" (any later instant) is past it.
    let shortLived = TestChain.make { $0.leaf.notAfter = Instant.chainStart + 10 * Instant.day }
    let verifier = try TestChain.verifier(trusting: shortLived)
    let signedInside = Timestamp(millisecondsSince1970: Instant.chainStart + 5 * Instant.day)
    let inside = try sign(Sample.transaction(signedDate: signedInside), with: shortLived)
    #expect(try verifier.verifyTransaction(inside).payload.signedDate == signedInside)

    let signedAfter = Timestamp(millisecondsSince1970: Instant.chainStart + 20 * Instant.day)
    let after = try sign(Sample.transaction(signedDate: signedAfter), with: shortLived)
    let rejected = failure { _ = try verifier.verifyTransaction(after) }
    #expect(rejected?.reason == .certificateNotValidAtSignedDate)
    // The cached chain is not reused outside the span it was verified for.
    #expect(try verifier.verifyTransaction(inside).payload.signedDate == signedInside)
  }

  @Test("a signedDate before the chain's validity is rejected with the same reason")
  func notYetValid() throws {
    let verifier = try TestChain.verifier()
    let early = Timestamp(millisecondsSince1970: Instant.chainStart - Instant.day)
    let jws = try sign(Sample.transaction(signedDate: early))
    #expect(
      failure { _ = try verifier.verifyTransaction(jws) }?.reason
        == .certificateNotValidAtSignedDate)
  }

  /// One such status answer among 58 once killed a night's audit (SIGILL): the chain is checked
  /// at `signedDate` before the signature, so the value need not even be signed by a trusted
  /// key. Signed correctly here, with the chain cached from a valid value first (the cache's
  /// own arithmetic was a second trap), and as the fuzzer's reproducers are, unsigned.
  static let extremeDates: [Int64] = [.min, .min + 1, .min + 999, .max - 999, .max]

  @Test(
    "a signedDate at the edges of 64 bits is refused with the reason, cached chain or not",
    arguments: Self.extremeDates)
  func extremeSignedDate(milliseconds: Int64) throws {
    let verifier = try TestChain.verifier()
    _ = try verifier.verifyTransaction(try sign(Sample.transaction()))
    let extreme = Timestamp(millisecondsSince1970: milliseconds)
    for kind in 0..<3 {
      let jws: String
      let reason: VerificationFailure.Reason?
      switch kind {
      case 0:
        jws = try sign(Sample.transaction(signedDate: extreme))
        reason = failure { _ = try verifier.verifyTransaction(jws) }?.reason
      case 1:
        var renewal = Sample.renewalInfo()
        renewal.signedDate = extreme
        jws = try sign(renewal)
        reason = failure { _ = try verifier.verifyRenewalInfo(jws) }?.reason
      default:
        jws =
          try sign(Sample.transaction(signedDate: extreme)).split(separator: ".")
          .dropLast().joined(separator: ".") + ".AAAA"
        reason = failure { _ = try verifier.verifyTransaction(jws) }?.reason
      }
      #expect(reason == .certificateNotValidAtSignedDate, "\(milliseconds), value \(kind)")
      let report = SignedValueInspector.inspect(
        jws, trustedRoots: [TestChain.standard.root.certificate], bundleId: nil,
        environment: nil, appAppleId: nil, now: Timestamp(millisecondsSince1970: Instant.chainStart)
      )
      #expect(report.exitStatus == 1 && report.text.contains("Verdict: INVALID"))
    }
  }

  @Test("the minimized inputs of Fuzz/Regressions/jws are refused with a reason")
  func fuzzFindings() throws {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let folder = repository.appendingPathComponent("Fuzz/Regressions/jws")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      !$0.hasSuffix(".md")
    }
    #expect(names.count >= 2)
    let root = try X509Certificate(
      pemRepresentation: String(
        contentsOf: repository.appendingPathComponent("Legacy/sample/signing/root.pem"),
        encoding: .utf8))
    let verifier = try SignedDataVerifier(
      trustedRoots: [root], bundleId: "com.example", appAppleId: nil, environment: .sandbox,
      now: { Timestamp(millisecondsSince1970: 1_717_200_000_000) }, notice: { _ in })
    for name in names {
      let jws = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
      #expect(
        failure { _ = try verifier.verifyTransaction(jws) }?.reason
          == .certificateNotValidAtSignedDate, "\(name)")
      let report = SignedValueInspector.inspect(
        jws, trustedRoots: [root], bundleId: nil, environment: nil, appAppleId: nil,
        now: Timestamp(millisecondsSince1970: 1_717_200_000_000))
      #expect(report.exitStatus == 1, "\(name)")
    }
  }

  @Test("the chain cache serves many JWS and copies for other environments share it")
  func cacheAcrossEnvironments() throws {
    let production = try TestChain.verifier()
    let sandbox = production.verifying(environment: .sandbox)
    for index in 0..<50 {
      let jws = try sign(Sample.transaction(id: "\(index)", environment: .sandbox))
      #expect(try sandbox.verifyTransaction(jws).payload.transactionId == "\(index)")
      #expect(
        failure { _ = try production.verifyTransaction(jws) }
          == .environmentMismatch(expected: .production, found: .sandbox))
    }
  }

  // MARK: - Every failure reason

  @Test(
    "text that is not a compact JWS is malformed",
    arguments: ["", "abc", "a.b", "a.b.c.d", "..", "a..c", "!!!.e30.AAAA"])
  func malformedStructure(text: String) throws {
    let verifier = try TestChain.verifier()
    #expect(failure { _ = try verifier.verifyTransaction(text) }?.reason == .malformed)
  }

  @Test("a payload that is not JSON is malformed")
  func malformedPayload() throws {
    let verifier = try TestChain.verifier()
    let jws = try JWSSigner(chain: chain).sign(payload: Array("not json".utf8))
    #expect(failure { _ = try verifier.verifyTransaction(jws) }?.reason == .malformed)
  }

  @Test("a payload without signedDate is validated at the verifier's now, as Apple's verifiers do")
  func noSignedDate() throws {
    let payload = #"{"transactionId":"1","bundleId":"com.example.app","environment":"Production"}"#
    let jws = try JWSSigner(chain: chain).sign(payload: Array(payload.utf8))
    let inside = try SignedDataVerifier(
      trustedRoots: [chain.root.certificate], bundleId: TestChain.bundleId, appAppleId: nil,
      environment: .production, now: { Instant.signed }, notice: { _ in })
    #expect(try inside.verifyTransaction(jws).payload.transactionId == "1")
    let after = try SignedDataVerifier(
      trustedRoots: [chain.root.certificate], bundleId: TestChain.bundleId, appAppleId: nil,
      environment: .production,
      now: { Timestamp(millisecondsSince1970: Instant.chainEnd + Instant.day) }, notice: { _ in })
    #expect(
      failure { _ = try after.verifyTransaction(jws) }?.reason == .certificateNotValidAtSignedDate)
  }

  @Test("an app transaction without signedDate is validated at its receiptCreationDate")
  func appTransactionAtReceiptCreationDate() throws {
    var inside = Sample.appTransaction()
    inside.signedDate = nil
    inside.receiptCreationDate = Instant.signed
    var before = inside
    before.receiptCreationDate = Timestamp(millisecondsSince1970: Instant.chainStart - Instant.day)
    // The verifier's now lies inside the chain's validity: only receiptCreationDate decides.
    let verifier = try TestChain.verifier()
    #expect(try verifier.verifyAppTransaction(try sign(inside)).payload.signedDate == nil)
    #expect(
      failure { _ = try verifier.verifyAppTransaction(try sign(before)) }?.reason
        == .certificateNotValidAtSignedDate)
  }

  @Test("a signature of the wrong length is malformed; one that does not verify is bad")
  func signatureShapes() throws {
    let verifier = try TestChain.verifier()
    let jws = try sign(Sample.transaction())
    let parts = jws.split(separator: ".")
    let short = "\(parts[0]).\(parts[1]).\(Base64URL.encode([UInt8](repeating: 1, count: 63)))"
    #expect(failure { _ = try verifier.verifyTransaction(short) }?.reason == .malformed)
    let zeros = "\(parts[0]).\(parts[1]).\(Base64URL.encode([UInt8](repeating: 0, count: 64)))"
    #expect(failure { _ = try verifier.verifyTransaction(zeros) } == .badSignature)
  }

  @Test("a tampered payload fails the signature check")
  func tamperedPayload() throws {
    let verifier = try TestChain.verifier()
    let jws = try sign(Sample.transaction())
    let parts = jws.split(separator: ".")
    var altered = Sample.transaction()
    altered.expiresDate = Timestamp(millisecondsSince1970: 4_102_444_800_000)
    let tampered = "\(parts[0]).\(Base64URL.encode(altered.jsonBytes())).\(parts[2])"
    #expect(failure { _ = try verifier.verifyTransaction(tampered) } == .badSignature)
  }

  @Test("a JWS signed by another key than the leaf's fails the signature check")
  func wrongSigningKey() throws {
    let verifier = try TestChain.verifier()
    let impostor = JWSSigner(
      privateKey: try P256PrivateKey.generate(),
      header: JWSHeader(algorithm: "ES256", x5c: chain.x5c))
    let jws = try impostor.sign(Sample.transaction())
    #expect(failure { _ = try verifier.verifyTransaction(jws) } == .badSignature)
  }

  @Test("an algorithm other than ES256 is rejected", arguments: ["HS256", "none", "ES384"])
  func wrongAlgorithm(algorithm: String) throws {
    let verifier = try TestChain.verifier()
    let signer = JWSSigner(
      privateKey: chain.leaf.privateKey, header: JWSHeader(algorithm: algorithm, x5c: chain.x5c))
    let jws = try signer.sign(Sample.transaction())
    #expect(
      failure { _ = try verifier.verifyTransaction(jws) } == .wrongAlgorithm(found: algorithm))
  }

  @Test("x5c must hold exactly three certificates", arguments: [1, 2, 4])
  func chainLength(count: Int) throws {
    let verifier = try TestChain.verifier()
    let x5c = Array((chain.x5c + chain.x5c).prefix(count))
    let signer = JWSSigner(
      privateKey: chain.leaf.privateKey, header: JWSHeader(algorithm: "ES256", x5c: x5c))
    let jws = try signer.sign(Sample.transaction())
    #expect(failure { _ = try verifier.verifyTransaction(jws) } == .chainLength(found: count))
  }

  @Test("a header without x5c, or an empty one, is rejected for that before its algorithm")
  func missingChain() throws {
    let verifier = try TestChain.verifier()
    for algorithm in ["ES256", "none"] {
      let signer = JWSSigner(
        privateKey: chain.leaf.privateKey, header: JWSHeader(algorithm: algorithm, x5c: []))
      let jws = try signer.sign(Sample.transaction())
      #expect(failure { _ = try verifier.verifyTransaction(jws) } == .missingCertificateChain)
    }
  }

  @Test("a chain to a root that is not configured is untrusted, though it presents its root")
  func untrustedRoot() throws {
    let other = TestChain.make()
    let verifier = try TestChain.verifier(trusting: other)
    let jws = try sign(Sample.transaction())
    let rejected = failure { _ = try verifier.verifyTransaction(jws) }
    #expect(rejected?.reason == .untrustedChain)
    #expect(rejected?.description.contains("not trusted") == true)
  }

  @Test("an x5c entry that is not a certificate is malformed")
  func garbageCertificate() throws {
    let verifier = try TestChain.verifier()
    let signer = JWSSigner(
      privateKey: chain.leaf.privateKey,
      header: JWSHeader(algorithm: "ES256", x5c: [chain.x5c[0], "bm90IGEgY2VydA==", chain.x5c[2]]))
    let jws = try signer.sign(Sample.transaction())
    #expect(failure { _ = try verifier.verifyTransaction(jws) }?.reason == .malformed)
  }

  @Test("a leaf or an intermediate without its Apple extension is rejected")
  func missingExtensions() throws {
    let noLeafMarker = TestChain.make { $0.leaf.markerExtensionOIDs = [] }
    let leafRejected = failure {
      _ = try TestChain.verifier(trusting: noLeafMarker).verifyTransaction(
        sign(Sample.transaction(), with: noLeafMarker))
    }
    #expect(
      leafRejected
        == .missingAppleExtension(
          certificate: noLeafMarker.leaf.certificate.subject,
          oid: AppleCertificateExtension.appStoreSigningLeaf))

    let noIntermediateMarker = TestChain.make { $0.intermediate.markerExtensionOIDs = [] }
    let intermediateRejected = failure {
      _ = try TestChain.verifier(trusting: noIntermediateMarker).verifyTransaction(
        sign(Sample.transaction(), with: noIntermediateMarker))
    }
    #expect(
      intermediateRejected
        == .missingAppleExtension(
          certificate: noIntermediateMarker.intermediate.certificate.subject,
          oid: AppleCertificateExtension.developerRelationsIntermediate))
  }

  @Test("a payload for another bundle id is rejected")
  func bundleMismatch() throws {
    let verifier = try TestChain.verifier(bundleId: "com.example.other")
    let jws = try sign(Sample.transaction())
    #expect(
      failure { _ = try verifier.verifyTransaction(jws) }
        == .bundleIdMismatch(expected: "com.example.other", found: TestChain.bundleId))
  }

  @Test("a payload from another environment is rejected")
  func environmentMismatch() throws {
    let verifier = try TestChain.verifier(environment: .sandbox)
    let jws = try sign(Sample.renewalInfo(environment: .xcode))
    #expect(
      failure { _ = try verifier.verifyRenewalInfo(jws) }
        == .environmentMismatch(expected: .sandbox, found: .xcode))
  }

  @Test("in production an app transaction must name the configured app Apple id")
  func appAppleIdMismatch() throws {
    let jws = try sign(Sample.appTransaction(appAppleId: 99))
    let verifier = try TestChain.verifier()
    #expect(
      failure { _ = try verifier.verifyAppTransaction(jws) }
        == .appAppleIdMismatch(expected: TestChain.appAppleId, found: 99))
    let unconfigured = try TestChain.verifier(appAppleId: nil)
    let rejected = failure { _ = try unconfigured.verifyAppTransaction(jws) }
    #expect(rejected == .appAppleIdMismatch(expected: nil, found: 99))
    #expect(rejected?.description.contains("APP_APPLE_ID") == true)
    // Sandbox data is not compared, as in Apple's libraries.
    let sandboxJWS = try sign(Sample.appTransaction(environment: .sandbox, appAppleId: nil))
    let sandbox = try TestChain.verifier(environment: .sandbox, appAppleId: nil)
    #expect(try sandbox.verifyAppTransaction(sandboxJWS).payload.receiptType == .sandbox)
  }

  @Test("every failure reason has a distinct name and a sentence")
  func reasonsAreDistinct() {
    let names = VerificationFailure.Reason.allCases.map(\.rawValue)
    #expect(Set(names).count == names.count)
    #expect(names.count == 11)
  }

  // MARK: - Trust configuration

  @Test("a root that is not Apple Root CA - G3 is announced once, plainly")
  func trustNotice() throws {
    let notices = Mutex<[String]>([])
    _ = try SignedDataVerifier(
      trustedRoots: [chain.root.certificate], bundleId: "b", appAppleId: nil,
      environment: .sandbox, notice: { message in notices.withLock { $0.append(message) } })
    let received = notices.withLock { $0 }
    #expect(received.count == 1)
    #expect(received.first?.contains("not Apple Root CA - G3") == true)
    #expect(received.first?.contains(chain.root.certificate.subject) == true)
    #expect(SignedDataVerifier.trustNotice(for: []) == nil)
    #expect(
      SignedDataVerifier.appleRootCAG3Fingerprint
        == "63343ABFB89A6A03EBB57E9B3F5FA7BE7C4F5C756F3017B3A8C488C3653E9179")
  }

  @Test("no trusted root is a configuration error, as is a file that is not a certificate")
  func rootConfiguration() throws {
    #expect(throws: ConfigurationError.self) {
      _ = try SignedDataVerifier(
        trustedRoots: [], bundleId: "b", appAppleId: nil, environment: .sandbox)
    }
    #expect(throws: ConfigurationError.self) {
      _ = try SignedDataVerifier.loadTrustedRoots(paths: ["/nonexistent/root.pem"])
    }
  }

  @Test("trusted roots load from PEM and DER files")
  func loadRoots() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    try chain.write(toDirectory: directory)
    let der = directory + "/root.cer"
    try writeFile(chain.root.certificate.derRepresentation, to: der)
    let roots = try SignedDataVerifier.loadTrustedRoots(paths: [directory + "/root.pem", der])
    #expect(roots == [chain.root.certificate, chain.root.certificate])
  }
}
