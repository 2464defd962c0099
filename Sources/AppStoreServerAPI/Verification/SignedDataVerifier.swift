import Chronology
import CryptoSupport
import JSON
import Synchronization

/// Verifies App Store signed data (compact JWS) and decodes its payload: every step of the
/// verification rules, in order.
///
/// 1. Exactly three base64url parts and a JSON payload; the header has an `x5c` chain, `alg` is
///    `ES256`, and `x5c` holds three certificates.
/// 2. The chain leads leaf → intermediate → one of the configured roots (`x5c[2]` is never
///    trusted because it was presented).
/// 3. The leaf carries `1.2.840.113635.100.6.11.1`, the intermediate `1.2.840.113635.100.6.2.1`.
/// 4. The chain is valid at the payload's `signedDate`, not now: stored data stays verifiable
///    after a certificate expires. A payload without one (an app transaction) is validated at
///    its `receiptCreationDate`, and a payload with neither at the verifier's `now`.
/// 5. The ES256 signature of `header.payload` verifies with the leaf's key.
/// 6. The payload is for the configured bundle id (and, for app transactions and notifications
///    in production, app Apple id), then for the configured environment.
///
/// The steps run in the order Apple's own verifiers run them, so that a value failing several
/// checks is rejected for the same reason Apple's library gives.
///
/// For the environments of StoreKit testing (`Xcode`, `LocalTesting`), where Apple's libraries
/// skip the signature altogether, the chain may be a single certificate (Xcode's own, which the
/// team exports from Xcode and configures as the root) and need not carry Apple's extensions;
/// the signature is still verified against it.
///
/// Verified chains are cached by the exact header bytes (see ``TrustedChainValidator``); copies
/// of a verifier and verifiers made with ``verifying(environment:)`` share the cache.
///
/// Thread safety: a verifier may be used from any number of tasks at once.
public struct SignedDataVerifier: Sendable {
  /// The bundle id payloads must name.
  public let bundleId: String

  /// The app's Apple id, compared in production for app transactions and notifications.
  public let appAppleId: Int64?

  /// The environment payloads must come from.
  public let environment: AppStoreEnvironment

  let chains: TrustedChainValidator

  /// The current time, for payloads that carry no date to validate their chain at.
  let now: @Sendable () -> Timestamp

  /// The SHA-256 fingerprint of Apple Root CA - G3, the root of all App Store signed data.
  public static let appleRootCAG3Fingerprint =
    "63343ABFB89A6A03EBB57E9B3F5FA7BE7C4F5C756F3017B3A8C488C3653E9179"

  // MARK: - Creating

  /// A verifier trusting `trustedRoots` for data of one app and environment.
  ///
  /// When a root is not Apple Root CA - G3, `notice` is called once with a sentence that says
  /// so, so that a test root is never shipped to production unnoticed.
  ///
  /// - Parameters:
  ///   - trustedRoots: The root certificates to trust: Apple Root CA - G3 against Apple, the
  ///     simulator's root against the simulator.
  ///   - bundleId: The app's bundle id.
  ///   - appAppleId: The app's Apple id; required to verify app transactions and notifications
  ///     in production.
  ///   - environment: The environment payloads must come from.
  ///   - now: The current time, the instant a payload with neither `signedDate` nor
  ///     `receiptCreationDate` is validated at.
  ///   - notice: Receives the non-Apple-root notice; by default it goes to standard error, once
  ///     per process and distinct set of roots.
  /// - Throws: ``ConfigurationError`` if no root is given or OpenSSL cannot build a trust store.
  public init(
    trustedRoots: [X509Certificate], bundleId: String, appAppleId: Int64?,
    environment: AppStoreEnvironment,
    now: @escaping @Sendable () -> Timestamp = SystemTime.now,
    notice: @Sendable (String) -> Void = SignedDataVerifier.printNoticeOnce
  ) throws(ConfigurationError) {
    guard !trustedRoots.isEmpty else {
      throw ConfigurationError(
        "no trusted root certificate is configured, so no signed data could ever verify; "
          + "configure Apple Root CA - G3 (AppleRootCA-G3.cer from apple.com/certificateauthority)")
    }
    do {
      chains = try TrustedChainValidator(trustedRoots: trustedRoots)
    } catch {
      throw ConfigurationError("the trusted roots cannot be used: \(error.message)")
    }
    self.bundleId = bundleId
    self.appAppleId = appAppleId
    self.environment = environment
    self.now = now
    if let message = Self.trustNotice(for: trustedRoots) { notice(message) }
  }

  private init(
    sharing chains: TrustedChainValidator, bundleId: String, appAppleId: Int64?,
    environment: AppStoreEnvironment, now: @escaping @Sendable () -> Timestamp
  ) {
    self.chains = chains
    self.now = now
    self.bundleId = bundleId
    self.appAppleId = appAppleId
    self.environment = environment
  }

  /// The same verifier for another environment, sharing the chain cache.
  ///
  /// - Parameter environment: The environment payloads must come from.
  /// - Returns: The verifier.
  public func verifying(environment: AppStoreEnvironment) -> SignedDataVerifier {
    SignedDataVerifier(
      sharing: chains, bundleId: bundleId, appAppleId: appAppleId, environment: environment,
      now: now)
  }

  /// The configured trusted roots.
  public var trustedRoots: [X509Certificate] { chains.trustedRoots }

  // MARK: - Trusted roots

  /// Loads trusted root certificates from PEM (one or many per file) or DER files.
  ///
  /// - Parameter paths: The files.
  /// - Returns: Every certificate, in order.
  /// - Throws: ``ConfigurationError`` naming the file and its problem.
  public static func loadTrustedRoots(paths: [String]) throws(ConfigurationError)
    -> [X509Certificate]
  {
    var roots: [X509Certificate] = []
    for path in paths {
      do {
        roots += try X509Certificate.certificates(contentsOfFile: path)
      } catch {
        throw ConfigurationError(
          "the trusted root certificate \(path) cannot be loaded: \(error.message); download "
            + "Apple Root CA - G3 from apple.com/certificateauthority, or use the simulator's "
            + "root.pem")
      }
    }
    return roots
  }

  /// The sentence to show when any of `roots` is not Apple Root CA - G3, or `nil`.
  ///
  /// - Parameter roots: The configured roots.
  /// - Returns: A plain warning naming each non-Apple root, or `nil` if all are Apple's.
  public static func trustNotice(for roots: [X509Certificate]) -> String? {
    let others = roots.filter { $0.sha256Fingerprint != appleRootCAG3Fingerprint }
    guard !others.isEmpty else { return nil }
    let names = others.map { "\"\($0.subject)\" (SHA-256 \($0.sha256Fingerprint.prefix(16))…)" }
    return "notice: trusting a root that is not Apple Root CA - G3: "
      + names.joined(separator: ", ")
      + ". Signed data from this root is accepted as App Store data; that is right for the "
      + "simulator and tests, and wrong against Apple's servers."
  }

  private static let printedNotices = Mutex<Set<String>>([])

  /// Writes `message` to standard error unless this process already wrote it.
  ///
  /// - Parameter message: The notice.
  public static func printNoticeOnce(_ message: String) {
    let isNew = printedNotices.withLock { $0.insert(message).inserted }
    if isNew { StandardError.write(message + "\n") }
  }

  // MARK: - Verifying

  /// Verifies and decodes a signed transaction (`signedTransactionInfo`, `signedTransactions[]`).
  ///
  /// - Parameter jws: The compact JWS.
  /// - Returns: The decoded transaction beside its JWS.
  /// - Throws: ``VerificationFailure`` naming the step that failed.
  public func verifyTransaction(_ jws: String) throws(VerificationFailure)
    -> Verified<JWSTransaction>
  {
    let payload = try verify(jws, as: JWSTransaction.self)
    try checkBundleId(payload.bundleId)
    try checkEnvironment(payload.environment)
    return Verified(payload: payload, jws: jws)
  }

  /// Verifies and decodes signed renewal information (`signedRenewalInfo`).
  ///
  /// - Parameter jws: The compact JWS.
  /// - Returns: The decoded renewal information beside its JWS.
  /// - Throws: ``VerificationFailure`` naming the step that failed.
  public func verifyRenewalInfo(_ jws: String) throws(VerificationFailure)
    -> Verified<JWSRenewalInfo>
  {
    let payload = try verify(jws, as: JWSRenewalInfo.self)
    // Renewal information names no bundle id; its environment is what can be compared.
    try checkEnvironment(payload.environment)
    return Verified(payload: payload, jws: jws)
  }

  /// Verifies and decodes a signed app transaction (`signedAppTransactionInfo`).
  ///
  /// - Parameter jws: The compact JWS.
  /// - Returns: The decoded app transaction beside its JWS.
  /// - Throws: ``VerificationFailure`` naming the step that failed.
  public func verifyAppTransaction(_ jws: String) throws(VerificationFailure)
    -> Verified<AppTransaction>
  {
    let payload = try verify(jws, as: AppTransaction.self)
    // Apple's order: the app (bundle id, then app Apple id in production), then the environment.
    try checkBundleId(payload.bundleId)
    try checkAppAppleId(payload.appAppleId)
    try checkEnvironment(payload.receiptType)
    return Verified(payload: payload, jws: jws)
  }

  /// Verifies and decodes a server notification (`signedPayload`), and the transaction and
  /// renewal information inside it.
  ///
  /// - Parameter jws: The compact JWS.
  /// - Returns: The decoded notification beside its JWS, with `data.transaction` and
  ///   `data.renewalInfo` verified.
  /// - Throws: ``VerificationFailure`` naming the step that failed, for the notification or the
  ///   data inside it.
  public func verifyNotification(_ jws: String) throws(VerificationFailure)
    -> Verified<NotificationPayload>
  {
    var payload = try verify(jws, as: NotificationPayload.self)
    let app = payload.app
    // Apple's order: the app (bundle id, then app Apple id in production), then the environment.
    try checkBundleId(app.bundleId)
    try checkAppAppleId(app.appAppleId)
    try checkEnvironment(app.environment)
    if let signed = payload.data?.signedTransactionInfo {
      payload.data?.transaction = try verifyTransaction(signed)
    }
    if let signed = payload.data?.signedRenewalInfo {
      payload.data?.renewalInfo = try verifyRenewalInfo(signed)
    }
    return Verified(payload: payload, jws: jws)
  }

  // MARK: - Steps

  /// Steps 1–5: structure, header, chain, extensions, validity at `signedDate`, signature.
  func verify<Payload: SignedPayload>(_ jws: String, as _: Payload.Type)
    throws(VerificationFailure) -> Payload
  {
    var text = jws
    let outcome: Result<Payload, VerificationFailure> = text.withUTF8 { bytes in
      Result { () throws(VerificationFailure) -> Payload in
        try verify(utf8: bytes)
      }
    }
    return try outcome.get()
  }

  private func verify<Payload: SignedPayload>(utf8 jws: UnsafeBufferPointer<UInt8>)
    throws(VerificationFailure) -> Payload
  {
    let dot = UInt8(ascii: ".")
    guard let firstDot = jws.firstIndex(of: dot),
      let secondDot = jws[(firstDot + 1)...].firstIndex(of: dot),
      !jws[(secondDot + 1)...].contains(dot)
    else {
      let parts = jws.split(separator: dot, omittingEmptySubsequences: false).count
      throw .malformed("a compact JWS has 3 dot-separated parts, this text has \(parts)")
    }
    let header = UnsafeBufferPointer(rebasing: jws[..<firstDot])
    let payloadSegment = UnsafeBufferPointer(rebasing: jws[(firstDot + 1)..<secondDot])
    let signatureSegment = UnsafeBufferPointer(rebasing: jws[(secondDot + 1)...])
    guard !header.isEmpty, !payloadSegment.isEmpty, !signatureSegment.isEmpty else {
      throw .malformed("a part of the compact JWS is empty")
    }

    // The payload is decoded before the signature is checked only to learn `signedDate`, the
    // instant the chain is validated at; nothing else in it is trusted until step 5 passes.
    let payloadJSON: [UInt8]
    do {
      payloadJSON = try Base64URL.decode(utf8: payloadSegment)
    } catch {
      throw .malformed("the payload is not base64url (\(error.message))")
    }
    let payload: Payload
    do {
      payload = try Payload.decode(json: payloadJSON)
    } catch {
      throw .malformed("the payload is not a \(Payload.self) JSON object (\(error))")
    }
    // Apple's verifiers validate at `signedDate`, else `receiptCreationDate` (app transactions
    // carry no `signedDate`), else now; a missing date is no reason to reject.
    let validationDate = payload.validationDate ?? now()

    // Data from StoreKit testing in Xcode (and local testing) is signed by Xcode's own
    // certificate, not the App Store's chain: Apple's libraries skip verification for it; here
    // it is verified against the certificate the team configured (Xcode exports it), without
    // the App Store chain's shape and extensions.
    let leafKey = try chains.leafKey(
      header: header, signedDate: validationDate,
      rules: environment.isLocalTesting ? .localTesting : .appStore)

    let signature: [UInt8]
    do {
      signature = try Base64URL.decode(utf8: signatureSegment)
    } catch {
      throw .malformed("the signature is not base64url (\(error.message))")
    }
    guard signature.count == ES256Signature.joseByteCount else {
      throw .malformed(
        "the signature is \(signature.count) bytes; an ES256 signature is 64 bytes (r||s)")
    }
    guard leafKey.isValidSignature(signature, for: UnsafeBufferPointer(rebasing: jws[..<secondDot]))
    else {
      throw .badSignature
    }
    return payload
  }

  private func checkBundleId(_ found: String?) throws(VerificationFailure) {
    guard found == bundleId else { throw .bundleIdMismatch(expected: bundleId, found: found) }
  }

  private func checkEnvironment(_ found: AppStoreEnvironment?) throws(VerificationFailure) {
    guard found == environment else {
      throw .environmentMismatch(expected: environment, found: found)
    }
  }

  private func checkAppAppleId(_ found: Int64?) throws(VerificationFailure) {
    // Apple's own libraries compare the app Apple id only in production: sandbox and Xcode data
    // may carry none.
    guard environment == .production else { return }
    guard let appAppleId, found == appAppleId else {
      throw .appAppleIdMismatch(expected: appAppleId, found: found)
    }
  }
}
