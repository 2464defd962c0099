/// Why a certificate chain was rejected, naming the certificate at fault by its subject.
public enum CertificateChainFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// The path does not reach any configured trusted root; `certificate` is where it stops: a
  /// self-signed certificate that is not configured, or one whose issuer is neither configured
  /// nor presented.
  case untrusted(certificate: String)

  /// A certificate had expired at the instant (its `notAfter` is before it).
  case expired(certificate: String, notAfter: Int64, instant: Int64)

  /// A certificate was not yet valid at the instant (its `notBefore` is after it).
  case notYetValid(certificate: String, notBefore: Int64, instant: Int64)

  /// A certificate's signature does not verify with its issuer's key.
  case badSignature(certificate: String)

  /// A certificate that issued another is not a certificate authority (basic constraints or key
  /// usage forbid it).
  case notCertificateAuthority(certificate: String)

  /// A certificate authority's path-length constraint is exceeded by the chain below it.
  case pathLengthExceeded(certificate: String)

  /// Any other verification error, with OpenSSL's code and text.
  case other(certificate: String?, code: Int32, reason: String)

  /// A sentence naming the certificate, the reason and what it means.
  public var description: String {
    switch self {
    case .untrusted(let certificate):
      "the certificate chain does not lead to a trusted root: it stops at \"\(certificate)\", "
        + "which is not a configured root and whose issuer is neither a configured root nor "
        + "among the certificates presented; configure the root that issued this chain (for App "
        + "Store data, Apple Root CA - G3)"
    case .expired(let certificate, let notAfter, let instant):
      "the certificate \"\(certificate)\" had expired at the verification instant "
        + "\(UTCText.format(milliseconds: instant)) (valid until "
        + "\(UTCText.format(milliseconds: notAfter)))"
    case .notYetValid(let certificate, let notBefore, let instant):
      "the certificate \"\(certificate)\" was not yet valid at the verification instant "
        + "\(UTCText.format(milliseconds: instant)) (valid from "
        + "\(UTCText.format(milliseconds: notBefore)))"
    case .badSignature(let certificate):
      "the signature on the certificate \"\(certificate)\" does not verify with its issuer's key; "
        + "the chain is forged or damaged"
    case .notCertificateAuthority(let certificate):
      "the certificate \"\(certificate)\" issued another certificate but is not a certificate "
        + "authority"
    case .pathLengthExceeded(let certificate):
      "the chain below the certificate authority \"\(certificate)\" is longer than its path-length "
        + "constraint allows"
    case .other(let certificate, let code, let reason):
      "the certificate chain was rejected"
        + (certificate.map { " at \"\($0)\"" } ?? "") + ": \(reason) (OpenSSL verify error \(code))"
    }
  }
}
