import Chronology
import CryptoSupport

/// Reads a raw receipt of either format — an app receipt or an iOS 6 transaction receipt,
/// told apart by their first decoded byte — and checks its signature when trusted roots are
/// given. The one entry point ingest needs: ``seeds(fromBase64:signatureInstant:)``.
///
/// ```swift
/// let reader = RawReceiptReader(verifier: try CertificateChainVerifier(trustedRoots: roots))
/// let seeds = try reader.seeds(fromBase64: record.base64)
/// // or, as a value: Result { () throws(RawReceiptError) in try reader.seeds(fromBase64: text) }
/// ```
///
/// Reading is pure and safe to share between threads; with a verifier, each app receipt's
/// signature and certificate chain are also checked through OpenSSL, which costs a few public
/// key verifications per receipt — more than reading it.
public struct RawReceiptReader: Sendable {
  /// The trusted roots signatures are checked against; `nil` checks none.
  public let verifier: CertificateChainVerifier?

  /// Creates a reader.
  ///
  /// - Parameter verifier: The trusted roots to check app receipt signatures against, or `nil`
  ///   to report every signature as not checked.
  public init(verifier: CertificateChainVerifier? = nil) {
    self.verifier = verifier
  }

  /// Reads a raw receipt and checks its signature.
  ///
  /// - Parameters:
  ///   - base64: The receipt as stored; line breaks are ignored.
  ///   - signatureInstant: When the signer's chain must be valid; `nil` uses the receipt's own
  ///     creation date, the instant Apple signed it.
  /// - Returns: The receipt's contents and the verdict on its signature.
  /// - Throws: ``RawReceiptError`` naming the first damage found.
  public func read(base64: some StringProtocol, signatureInstant: Timestamp? = nil)
    throws(RawReceiptError) -> RawReceipt
  {
    try read(Self.decodeBase64(base64.utf8, part: .receipt), signatureInstant: signatureInstant)
  }

  /// Reads a raw receipt from its decoded bytes — the binary file an app bundle holds, or a
  /// transaction receipt's property list text — and checks its signature.
  ///
  /// - Parameters:
  ///   - bytes: The receipt's bytes.
  ///   - signatureInstant: When the signer's chain must be valid; `nil` uses the receipt's own
  ///     creation date.
  /// - Returns: The receipt's contents and the verdict on its signature.
  /// - Throws: ``RawReceiptError`` naming the first damage found.
  public func read(_ bytes: [UInt8], signatureInstant: Timestamp? = nil) throws(RawReceiptError)
    -> RawReceipt
  {
    guard let first = bytes.first else { throw .emptyInput }
    if first == 0x30 {
      let receipt = try AppReceiptReader.read(bytes)
      let signature: RawReceiptSignature
      if let verifier {
        if let instant = signatureInstant ?? receipt.creationDate {
          signature = .check(appReceipt: bytes, using: verifier, at: instant)
        } else {
          signature = .notChecked(.noInstant)
        }
      } else {
        signature = .notChecked(.noTrustedRoots)
      }
      return RawReceipt(content: .appReceipt(receipt), signature: signature)
    }
    let text = bytes.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    if text.first == UInt8(ascii: "{") {
      return RawReceipt(
        content: .transactionReceipt(try TransactionReceiptReader.read(bytes)),
        signature: .notChecked(verifier == nil ? .noTrustedRoots : .transactionReceipt))
    }
    throw .unrecognizedFormat(firstByte: text.first ?? first)
  }

  /// Reads a raw receipt and returns what ingest needs from it.
  ///
  /// - Parameters:
  ///   - base64: The receipt as stored.
  ///   - signatureInstant: When the signer's chain must be valid; `nil` uses the receipt's own
  ///     creation date.
  /// - Returns: The ids, the bundle id, the creation date, the format and the signature verdict.
  /// - Throws: ``RawReceiptError`` naming the first damage found.
  public func seeds(fromBase64 base64: some StringProtocol, signatureInstant: Timestamp? = nil)
    throws(RawReceiptError) -> RawReceiptSeeds
  {
    try read(base64: base64, signatureInstant: signatureInstant).seeds
  }

  // MARK: - Shared rules

  /// Decodes base64 text, naming the part it belongs to in errors.
  static func decodeBase64(_ text: some Collection<UInt8>, part: RawReceiptPart)
    throws(RawReceiptError) -> [UInt8]
  {
    do {
      return try Base64Text.decode(text)
    } catch {
      switch error {
      case .invalidCharacter(let offset, let byte):
        throw .invalidBase64Character(part, offset: offset, byte: byte)
      case .invalidLength(let characters):
        throw .invalidBase64Length(part, characters: characters)
      }
    }
  }

  /// Whether `text` can be a transaction id: one or more ASCII digits.
  static func isTransactionId(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }
}
