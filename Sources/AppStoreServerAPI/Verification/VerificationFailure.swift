import Chronology
import CryptoSupport

/// Why signed App Store data (a compact JWS) was rejected. Each case is one step of the
/// verification rules; ``reason`` names it for counting and reports.
public enum VerificationFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// The text is not a compact JWS, or a part does not decode (base64url, JSON, certificate);
  /// the message says which.
  case malformed(String)

  /// The header carries no `x5c` certificate chain (or an empty one): nothing can be verified.
  case missingCertificateChain

  /// The header's `alg` is not `ES256` (`nil` when absent).
  case wrongAlgorithm(found: String?)

  /// The header's `x5c` does not hold exactly three certificates.
  case chainLength(found: Int)

  /// The certificates do not chain to a configured trusted root (or are otherwise rejected).
  case untrustedChain(CertificateChainFailure)

  /// A certificate lacks the Apple extension its place in the chain requires.
  case missingAppleExtension(certificate: String, oid: String)

  /// A certificate of the chain was expired or not yet valid at the instant the payload is
  /// validated at: its `signedDate`, else its `receiptCreationDate`, else the verifier's now.
  case certificateNotValidAtSignedDate(CertificateChainFailure, signedDate: Timestamp)

  /// The ES256 signature does not verify with the leaf certificate's key: the data was altered
  /// or signed by another key.
  case badSignature

  /// The payload is for another app.
  case bundleIdMismatch(expected: String, found: String?)

  /// The payload comes from another environment than the one called or configured.
  case environmentMismatch(expected: AppStoreEnvironment, found: AppStoreEnvironment?)

  /// The payload names another app Apple id, or none is configured to compare with.
  case appAppleIdMismatch(expected: Int64?, found: Int64?)

  /// The verification step that failed, as a stable name for counters and reports.
  public enum Reason: String, Sendable, Hashable, CaseIterable {
    /// See ``VerificationFailure/malformed(_:)``.
    case malformed
    /// See ``VerificationFailure/missingCertificateChain``.
    case missingCertificateChain = "missing_x5c"
    /// See ``VerificationFailure/wrongAlgorithm(found:)``.
    case wrongAlgorithm = "wrong_algorithm"
    /// See ``VerificationFailure/chainLength(found:)``.
    case chainLength = "chain_length"
    /// See ``VerificationFailure/untrustedChain(_:)``.
    case untrustedChain = "untrusted_chain"
    /// See ``VerificationFailure/missingAppleExtension(certificate:oid:)``.
    case missingAppleExtension = "missing_oid"
    /// See ``VerificationFailure/certificateNotValidAtSignedDate(_:signedDate:)``.
    case certificateNotValidAtSignedDate = "certificate_not_valid_at_signed_date"
    /// See ``VerificationFailure/badSignature``.
    case badSignature = "bad_signature"
    /// See ``VerificationFailure/bundleIdMismatch(expected:found:)``.
    case bundleIdMismatch = "bundle_id_mismatch"
    /// See ``VerificationFailure/environmentMismatch(expected:found:)``.
    case environmentMismatch = "environment_mismatch"
    /// See ``VerificationFailure/appAppleIdMismatch(expected:found:)``.
    case appAppleIdMismatch = "app_apple_id_mismatch"
  }

  /// The step that failed.
  public var reason: Reason {
    switch self {
    case .malformed: .malformed
    case .missingCertificateChain: .missingCertificateChain
    case .wrongAlgorithm: .wrongAlgorithm
    case .chainLength: .chainLength
    case .untrustedChain: .untrustedChain
    case .missingAppleExtension: .missingAppleExtension
    case .certificateNotValidAtSignedDate: .certificateNotValidAtSignedDate
    case .badSignature: .badSignature
    case .bundleIdMismatch: .bundleIdMismatch
    case .environmentMismatch: .environmentMismatch
    case .appAppleIdMismatch: .appAppleIdMismatch
    }
  }

  /// A sentence naming the step, what was found and what it means.
  public var description: String {
    switch self {
    case .malformed(let detail):
      return "the signed data is malformed: \(detail)"
    case .missingCertificateChain:
      return "the signed data's header has no x5c certificate chain, so nothing proves who "
        + "signed it; App Store data always carries leaf, intermediate and root"
    case .wrongAlgorithm(let found):
      return "the signed data uses algorithm \(found.map { "\"\($0)\"" } ?? "(none)") where "
        + "App Store data is always ES256; it was not signed by the App Store"
    case .chainLength(let found):
      return "the signed data's x5c header holds \(found) certificates where App Store data "
        + "carries exactly 3 (leaf, intermediate, root)"
    case .untrustedChain(let failure):
      return "the signed data's certificate chain is not trusted: \(failure)"
    case .missingAppleExtension(let certificate, let oid):
      return "the certificate \"\(certificate)\" lacks the Apple extension \(oid) that App Store "
        + "signing certificates carry; the data was not signed by the App Store"
    case .certificateNotValidAtSignedDate(let failure, let signedDate):
      return "the signed data's certificate chain was not valid at \(signedDate), the instant "
        + "it is checked at (its signedDate, else its receiptCreationDate, else now): \(failure)"
    case .badSignature:
      return "the ES256 signature does not verify with the leaf certificate's key: the payload "
        + "or header was altered after signing"
    case .bundleIdMismatch(let expected, let found):
      return "the signed data is for bundle id \(found.map { "\"\($0)\"" } ?? "(none)"), not "
        + "the configured \"\(expected)\"; check APP_BUNDLE_ID"
    case .environmentMismatch(let expected, let found):
      return "the signed data comes from environment \(found?.rawValue ?? "(none)") but "
        + "\(expected.rawValue) was expected"
    case .appAppleIdMismatch(let expected, let found):
      guard let expected else {
        return "the signed data names app Apple id \(found.map(String.init) ?? "(none)") and no "
          + "app Apple id is configured to compare it with; set APP_APPLE_ID"
      }
      return "the signed data is for app Apple id \(found.map(String.init) ?? "(none)"), not the "
        + "configured \(expected); check APP_APPLE_ID"
    }
  }
}
