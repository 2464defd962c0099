import Chronology
import CryptoSupport
import Foundation
import JSON

/// The behaviour of `receipt-migrate decode`: shows a signed App Store value — its header, its
/// certificate chain, the verdict of full verification with the reason, and the decoded payload
/// as pretty JSON.
///
/// The kind of value (transaction, renewal info, app transaction, notification) is recognized
/// from the payload's members. Without `--bundle-id` or `--environment`, the payload's own values
/// are used and the report says they were not checked.
public enum SignedValueInspector {
  /// The JWS text an argument stands for: `-` reads standard input, an existing file is read,
  /// anything else is the JWS itself.
  ///
  /// - Parameters:
  ///   - argument: `-`, a file path, or a compact JWS.
  ///   - standardInput: Reads all of standard input.
  /// - Returns: The JWS without surrounding whitespace.
  /// - Throws: ``ConfigurationError`` if a file cannot be read or the input is empty.
  public static func readInput(_ argument: String, standardInput: () -> [UInt8])
    throws(ConfigurationError) -> String
  {
    let text: String
    if argument == "-" {
      text = String(decoding: standardInput(), as: UTF8.self)
    } else if FileManager.default.fileExists(atPath: argument) {
      guard let data = FileManager.default.contents(atPath: argument) else {
        throw ConfigurationError("the file \(argument) cannot be read; check its permissions")
      }
      text = String(decoding: data, as: UTF8.self)
    } else {
      text = argument
    }
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else {
      throw ConfigurationError(
        "no signed value to decode: pass a JWS, a file holding one, or - for standard input")
    }
    return trimmed
  }

  /// Inspects one JWS.
  ///
  /// - Parameters:
  ///   - jws: The compact JWS.
  ///   - trustedRoots: The roots to verify against; none means the verdict is "not verified".
  ///   - bundleId: The expected bundle id, or `nil` to take the payload's.
  ///   - environment: The expected environment, or `nil` to take the payload's.
  ///   - appAppleId: The expected app Apple id, or `nil` to take the payload's.
  ///   - now: The current time, the instant a value with neither `signedDate` nor
  ///     `receiptCreationDate` is validated at.
  /// - Returns: The text, and exit status 0 when the value verified, 1 when not.
  public static func inspect(
    _ jws: String, trustedRoots: [X509Certificate], bundleId: String?,
    environment: AppStoreEnvironment?, appAppleId: Int64?, now: Timestamp, json: Bool = false
  ) -> InspectionReport {
    var lines: [String] = []
    let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
    let payloadValue = parts.count == 3 ? decodePayload(parts[1]) : nil
    let header = parts.count == 3 ? decodeHeader(parts[0]) : nil
    var chain: [String] = []

    lines.append("Header")
    if let header {
      lines.append("  alg: \(header.algorithm ?? "(none)")")
      lines.append("  x5c: \(header.x5c.count) certificate(s)")
      lines.append("Chain (as presented)")
      let roles = ["leaf", "intermediate", "root"]
      for (index, text) in header.x5c.enumerated() {
        let role = index < roles.count ? roles[index] : "extra"
        chain.append(describeCertificate(text, index: index, role: role))
      }
      lines += chain
    } else {
      lines.append("  (not a decodable compact JWS header)")
    }

    let kind = payloadValue.map(Kind.init(payload:)) ?? .transaction
    let expectedBundle = bundleId ?? payloadValue.flatMap { kind.bundleId(in: $0) }
    let expectedEnvironment =
      environment
      ?? payloadValue.flatMap { kind.environment(in: $0) }.map(AppStoreEnvironment.init(rawValue:))
    let expectedAppAppleId = appAppleId ?? payloadValue.flatMap { kind.appAppleId(in: $0) }

    lines.append("Kind: \(kind.rawValue) (recognized from the payload's members)")
    var notices: [String] = []
    let verdict: VerificationFailure?
    if trustedRoots.isEmpty {
      lines.append(
        expectedEnvironment?.isLocalTesting == true
          ? "Verdict: NOT VERIFIED: no trusted root was given; StoreKit testing signs with Xcode's own certificate: export it from Xcode (Editor > Save Public Certificate) and pass it with --root"
          : "Verdict: NOT VERIFIED: no trusted root was given; pass --root with Apple Root CA - G3 (or the simulator's root.pem)"
      )
      verdict = nil
    } else {
      let failure = verify(
        jws, kind: kind, roots: trustedRoots, bundleId: expectedBundle ?? "",
        environment: expectedEnvironment ?? .production, appAppleId: expectedAppAppleId,
        now: now, notices: &notices)
      verdict = failure
      if let failure {
        lines.append("Verdict: INVALID (\(failure.reason.rawValue)): \(failure)")
      } else {
        lines.append("Verdict: valid")
      }
    }
    let checks = AppChecks(
      kind: kind, environment: expectedEnvironment ?? .production, verdict: verdict,
      verified: !trustedRoots.isEmpty)
    func given(_ isGiven: Bool) -> String {
      isGiven ? "" : " (taken from the payload, not checked)"
    }
    let made = checks.made.map { check -> String in
      switch check {
      case .bundleId: "bundle id \(expectedBundle ?? "(none)")" + given(bundleId != nil)
      case .appAppleId:
        "app Apple id \(expectedAppAppleId.map(String.init) ?? "(none)")" + given(appAppleId != nil)
      case .environment:
        "environment \(expectedEnvironment?.rawValue ?? "(none)")" + given(environment != nil)
      }
    }
    lines.append(
      "Checked against: "
        + (made.isEmpty
          ? (trustedRoots.isEmpty
            ? "nothing (not verified)" : "nothing of the app (verification stopped before it)")
          : made.joined(separator: "; ")))
    let notChecked = Self.notChecked(
      checks, kind: kind, payload: payloadValue, bundleId: bundleId, appAppleId: appAppleId)
    if !notChecked.isEmpty { lines.append("Not checked: " + notChecked.joined(separator: "; ")) }
    lines += notices
    lines.append("Payload")
    if let payloadValue {
      lines.append(payloadValue.serialized(style: .pretty))
    } else {
      lines.append("  (the payload is not base64url JSON)")
    }
    let valid = !trustedRoots.isEmpty && verdict == nil
    guard json else {
      return InspectionReport(text: lines.joined(separator: "\n") + "\n", exitStatus: valid ? 0 : 1)
    }
    var writer = JSONWriter(style: .pretty)
    writer.beginObject()
    writer.field("kind", kind.rawValue)
    writer.field(
      "verdict", trustedRoots.isEmpty ? "not_verified" : verdict == nil ? "valid" : "invalid")
    writer.field("failure_reason", verdict?.reason.rawValue)
    writer.field("failure", verdict.map { "\($0)" })
    writer.field("algorithm", header?.algorithm)
    writer.key("chain")
    writer.beginArray()
    for certificate in chain { writer.value(certificate.trimmingCharacters(in: .whitespaces)) }
    writer.endArray()
    writer.field("bundle_id", expectedBundle)
    writer.field("bundle_id_checked", bundleId != nil && checks.made.contains(.bundleId))
    writer.field("app_apple_id", expectedAppAppleId)
    writer.field(
      "app_apple_id_checked", appAppleId != nil && checks.made.contains(.appAppleId))
    writer.field("environment", expectedEnvironment?.rawValue)
    writer.field(
      "environment_checked", environment != nil && checks.made.contains(.environment))
    writer.key("not_checked")
    writer.beginArray()
    for reason in notChecked { writer.value(reason) }
    writer.endArray()
    writer.key("notices")
    writer.beginArray()
    for notice in notices { writer.value(notice.trimmingCharacters(in: .whitespaces)) }
    writer.endArray()
    writer.key("payload")
    if let payloadValue {
      writer.raw(Array(payloadValue.serialized(style: .compact).utf8))
    } else {
      writer.null()
    }
    writer.endObject()
    return InspectionReport(
      text: String(decoding: writer.bytes, as: UTF8.self) + "\n", exitStatus: valid ? 0 : 1)
  }

  /// Why a value the user gave, or the payload names, was not compared: the kind never compares
  /// it, or verification stopped before it.
  private static func notChecked(
    _ checks: AppChecks, kind: Kind, payload: JSONValue?, bundleId: String?, appAppleId: Int64?
  ) -> [String] {
    var reasons: [String] = []
    let payloadBundle = payload.flatMap { kind.bundleId(in: $0) }
    if checks.neverMade.contains(.bundleId), bundleId != nil || payloadBundle != nil {
      var reason = "bundle id: \(kind.rawValue) carries none Apple's verifiers compare"
      if let payloadBundle {
        reason += "; the payload names \"\(payloadBundle)\", compared with nothing"
      }
      if let bundleId { reason += "; --bundle-id \(bundleId) was not compared" }
      reasons.append(reason)
    }
    if checks.neverMade.contains(.appAppleId), let appAppleId {
      reasons.append(
        "app Apple id: \(kind == .transaction || kind == .renewalInfo ? "a \(kind.rawValue) is never compared with one" : "compared in production only"); \(appAppleId) was not compared"
      )
    }
    if !checks.notReached.isEmpty {
      reasons.append(
        checks.notReached.map(\.rawValue).joined(separator: ", ")
          + ": verification stopped before comparing")
    }
    return reasons
  }

  // MARK: - Kinds

  /// The kind of signed value, recognized from members only that kind has.
  ///
  /// Apple's verifiers never guess: the caller names the kind. `decode` has no caller to ask,
  /// so it reads the members Apple documents for each kind: a notification has a
  /// `notificationType` (or `notificationUUID`), an app transaction a `receiptType`, renewal
  /// information members no transaction has, a transaction a `bundleId` or members no renewal
  /// information has; what is left names no bundle id, which only renewal information does
  /// (Apple's own minimal `renewalInfo` test vector is `{environment, signedDate}`).
  enum Kind: String {
    case transaction
    case renewalInfo = "renewal info"
    case appTransaction = "app transaction"
    case notification

    static let renewalOnlyMembers = [
      "autoRenewStatus", "autoRenewProductId", "renewalDate", "renewalPrice", "expirationIntent",
      "isInBillingRetryPeriod", "gracePeriodExpiresDate", "priceIncreaseStatus",
      "recentSubscriptionStartDate", "eligibleWinBackOfferIds", "renewalBillingPlanType",
    ]
    static let transactionOnlyMembers = [
      "bundleId", "transactionId", "purchaseDate", "originalPurchaseDate", "expiresDate",
      "quantity", "type", "inAppOwnershipType", "transactionReason", "revocationDate",
      "webOrderLineItemId", "storefront",
    ]

    init(payload: JSONValue) {
      if payload["notificationType"] != nil || payload["notificationUUID"] != nil {
        self = .notification
      } else if payload["receiptType"] != nil {
        self = .appTransaction
      } else if Self.renewalOnlyMembers.contains(where: { payload[$0] != nil }) {
        self = .renewalInfo
      } else if Self.transactionOnlyMembers.contains(where: { payload[$0] != nil }) {
        self = .transaction
      } else {
        self = .renewalInfo
      }
    }

    /// Where the app's members are: for a notification, the first of `data`, `summary`,
    /// `externalPurchaseToken` and `appData`, as Apple's verifiers look.
    private func scope(_ payload: JSONValue) -> JSONValue? {
      guard self == .notification else { return payload }
      return payload["data"] ?? payload["summary"] ?? payload["externalPurchaseToken"]
        ?? payload["appData"]
    }

    func bundleId(in payload: JSONValue) -> String? { scope(payload)?["bundleId"]?.stringValue }

    func appAppleId(in payload: JSONValue) -> Int64? { scope(payload)?["appAppleId"]?.int64Value }

    func environment(in payload: JSONValue) -> String? {
      if self == .notification, payload["data"] == nil, payload["summary"] == nil,
        let token = payload["externalPurchaseToken"]
      {
        // An external purchase token names no environment; its id's prefix tells it.
        let id = token["externalPurchaseId"]?.stringValue ?? ""
        return id.hasPrefix("SANDBOX") ? "Sandbox" : "Production"
      }
      let key = self == .appTransaction ? "receiptType" : "environment"
      return scope(payload)?[key]?.stringValue
    }
  }

  private static func verify(
    _ jws: String, kind: Kind, roots: [X509Certificate], bundleId: String,
    environment: AppStoreEnvironment, appAppleId: Int64?, now: Timestamp,
    notices: inout [String]
  ) -> VerificationFailure? {
    let verifier: SignedDataVerifier
    let collected = NoticeCollector()
    do {
      verifier = try SignedDataVerifier(
        trustedRoots: roots, bundleId: bundleId, appAppleId: appAppleId,
        environment: environment, now: { now }, notice: collected.add)
    } catch {
      return .malformed("the trusted roots cannot be used: \(error.message)")
    }
    notices += collected.messages
    do {
      switch kind {
      case .transaction: _ = try verifier.verifyTransaction(jws)
      case .renewalInfo: _ = try verifier.verifyRenewalInfo(jws)
      case .appTransaction: _ = try verifier.verifyAppTransaction(jws)
      case .notification: _ = try verifier.verifyNotification(jws)
      }
      return nil
    } catch {
      return error
    }
  }

  // MARK: - Parts

  private static func decodeHeader(_ segment: Substring) -> JWSHeader? {
    var text = String(segment)
    return text.withUTF8 { bytes in
      do {
        return try JWSHeader.parse(segment: bytes)
      } catch {
        return nil
      }
    }
  }

  private static func decodePayload(_ segment: Substring) -> JSONValue? {
    do {
      return try JSONValue(parsing: Base64URL.decode(segment))
    } catch {
      return nil
    }
  }

  private static func describeCertificate(_ base64: String, index: Int, role: String) -> String {
    let certificate: X509Certificate
    do {
      certificate = try X509Certificate(base64Encoded: base64)
    } catch {
      return "  [\(index)] \(role): not a certificate (\(error.message))"
    }
    let from = Timestamp(millisecondsSince1970: certificate.notBefore)
    let until = Timestamp(millisecondsSince1970: certificate.notAfter)
    var markers: [String] = []
    if certificate.hasExtension(oid: AppleCertificateExtension.appStoreSigningLeaf) {
      markers.append("App Store signing leaf OID")
    }
    if certificate.hasExtension(oid: AppleCertificateExtension.developerRelationsIntermediate) {
      markers.append("WWDR intermediate OID")
    }
    return "  [\(index)] \(role): \(certificate.subject)\n"
      + "      valid \(from) to \(until); SHA-256 \(certificate.sha256Fingerprint.prefix(16))…"
      + (markers.isEmpty ? "" : "; carries \(markers.joined(separator: ", "))")
  }
}
