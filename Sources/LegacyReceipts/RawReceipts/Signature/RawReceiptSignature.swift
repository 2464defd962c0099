import Chronology
import CryptoSupport

/// Whether a raw receipt's signature was checked, and the verdict.
///
/// Ids from a receipt whose signature is invalid or unchecked are still usable to ask the App
/// Store Server API about the customer — the API's signed answer is the truth — but reports mark
/// them, because nothing vouches that the receipt came from Apple.
public enum RawReceiptSignature: Hashable, Sendable, CustomStringConvertible {
  /// The PKCS#7 signature matches the payload and the signer chains to a trusted root at the
  /// instant; `signer` is the signing certificate's subject.
  case valid(signer: String)
  /// The signature was checked and rejected, for `reason`.
  case invalid(reason: String)
  /// The signature was not checked.
  case notChecked(NotCheckedReason)

  /// Checks an app receipt's PKCS#7 signature.
  ///
  /// The content OpenSSL verifies must be byte for byte the payload ``AppReceiptReader`` reads:
  /// a signature vouches for ids only if both parsers saw the same bytes, so an envelope that two
  /// parsers read differently is invalid.
  ///
  /// - Parameters:
  ///   - envelope: The receipt's bytes (the decoded base64).
  ///   - verifier: The trusted roots; build one and share it between receipts.
  ///   - instant: When the signer's chain must be valid, normally the receipt's creation date.
  /// - Returns: `.valid` with the signer, or `.invalid` with the reason.
  public static func check(
    appReceipt envelope: [UInt8], using verifier: CertificateChainVerifier, at instant: Timestamp
  ) -> RawReceiptSignature {
    switch PKCS7SignedData.verify(envelope, using: verifier, at: instant.millisecondsSince1970) {
    case .invalid(let failure):
      return .invalid(reason: failure.description)
    case .valid(let content, let signer):
      let payload: ArraySlice<UInt8>
      do {
        payload = try AppReceiptReader.signedContent(of: envelope)
      } catch {
        return .invalid(reason: error.description)
      }
      guard payload.elementsEqual(content) else {
        return .invalid(
          reason: "the content OpenSSL verified differs from the payload the receipt reader read")
      }
      return .valid(signer: signer.subject)
    }
  }

  /// `valid`, `invalid` or `not checked`: the verdict alone, for tables and JSON.
  public var verdict: String {
    switch self {
    case .valid: "valid"
    case .invalid: "invalid"
    case .notChecked: "not checked"
    }
  }

  /// The verdict with its detail: `valid (signed by CN=...)`, `invalid: reason`,
  /// `not checked: reason`.
  public var description: String {
    switch self {
    case .valid(let signer): "valid (signed by \(signer))"
    case .invalid(let reason): "invalid: \(reason)"
    case .notChecked(let reason): "not checked: \(reason)"
    }
  }
}
