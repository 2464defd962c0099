/// Why a PKCS#7 `signedData` envelope was rejected.
public enum PKCS7Failure: Error, Sendable, Hashable, CustomStringConvertible {
  /// The bytes are not one DER or BER PKCS#7 `ContentInfo`.
  case malformed(String)

  /// The envelope is PKCS#7 but not `signedData`.
  case notSignedData(contentType: String)

  /// The envelope signs content it does not carry (a detached signature).
  case detachedContent

  /// The envelope has a number of signers other than exactly one.
  case signerCount(Int)

  /// The signer's certificate is not in the envelope.
  case signerCertificateMissing

  /// The signature does not match the content (tampered content or a wrong key).
  case badSignature(openSSLReasons: [String])

  /// The signature is intact but the signer's certificate chain is not trusted at the instant.
  case untrustedSigner(CertificateChainFailure)

  /// OpenSSL failed for a reason unrelated to the input (out of memory).
  case internalFailure(String)

  /// A sentence naming the reason.
  public var description: String {
    switch self {
    case .malformed(let reason):
      "the PKCS#7 envelope is malformed: \(reason)"
    case .notSignedData(let contentType):
      "the PKCS#7 envelope is \(contentType), not signedData"
    case .detachedContent:
      "the PKCS#7 signedData does not carry the content it signs (detached signature)"
    case .signerCount(let count):
      "the PKCS#7 signedData has \(count) signers where exactly one is expected"
    case .signerCertificateMissing:
      "the PKCS#7 signedData does not contain its signer's certificate"
    case .badSignature(let reasons):
      "the PKCS#7 signature does not match the content; it was altered or signed with another key"
        + (reasons.isEmpty ? "" : " (OpenSSL: \(reasons.joined(separator: "; ")))")
    case .untrustedSigner(let failure):
      "the PKCS#7 signer is not trusted: \(failure)"
    case .internalFailure(let reason):
      "PKCS#7 verification could not run: \(reason)"
    }
  }
}
