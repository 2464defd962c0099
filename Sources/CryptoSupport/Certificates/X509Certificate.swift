import COpenSSL
import Foundation
import Glibc

/// An X.509 certificate, parsed by OpenSSL.
///
/// The fields callers read often (subject, issuer, serial, validity, CA flag) are extracted once at
/// load time; the DER bytes are kept exactly as given, so ``sha256Fingerprint`` matches
/// `openssl x509 -fingerprint -sha256` on the same file.
///
/// Thread safety: immutable after loading. OpenSSL 3 guards the lazily computed extension cache
/// inside each `X509` with the certificate's own lock, so one certificate may be read and used in
/// chain verification from many threads at once.
public final class X509Certificate: @unchecked Sendable, Hashable, CustomStringConvertible {
  // @unchecked Sendable is sound: every stored property is a `let`, and the X509 object is only
  // read after init; the one cache OpenSSL fills lazily (extension flags) is lock-protected.

  let certificate: OpaquePointer

  /// The certificate's DER encoding, exactly as loaded.
  public let derRepresentation: [UInt8]

  /// The subject's distinguished name on one line, most specific first
  /// (`CN=Apple Root CA - G3,OU=Apple Certification Authority,O=Apple Inc.,C=US`).
  public let subject: String

  /// The issuer's distinguished name, in the form of ``subject``.
  public let issuer: String

  /// The serial number as big-endian bytes without leading zeros.
  public let serialNumber: [UInt8]

  /// The start of the validity period, in Unix milliseconds.
  public let notBefore: Int64

  /// The end of the validity period, in Unix milliseconds. OpenSSL's verifier treats a
  /// certificate as expired from this second on.
  public let notAfter: Int64

  /// Whether the basic-constraints extension marks the certificate as a certificate authority.
  public let isCertificateAuthority: Bool

  // MARK: - Loading

  /// Loads a certificate from its DER encoding.
  ///
  /// - Parameter derRepresentation: The DER bytes (a `.cer` file, one `x5c` entry decoded).
  /// - Throws: ``CryptoError`` of kind `.malformedInput` if the bytes are not exactly one
  ///   certificate.
  public convenience init(derRepresentation: some Sequence<UInt8>) throws(CryptoError) {
    let der = Array(derRepresentation)
    let outcome = der.withUnsafeBytes { input -> Result<OpaquePointer, CryptoError> in
      let start = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
      var cursor = start
      guard let certificate = d2i_X509(nil, &cursor, input.count) else {
        return .failure(
          CryptoError(
            .malformedInput, "the \(input.count) bytes given as a certificate are not DER X.509"))
      }
      guard let start, let cursor, cursor == start + input.count else {
        X509_free(certificate)
        return .failure(
          CryptoError(
            .malformedInput,
            "the \(input.count) bytes given as a certificate have trailing bytes after the "
              + "certificate"))
      }
      return .success(certificate)
    }
    try self.init(takingOwnershipOf: outcome.get(), der: der)
  }

  /// Loads a certificate from standard base64 DER, the form of a JWS header's `x5c` entries.
  ///
  /// - Parameter base64Encoded: Standard (not URL-safe) base64 of the DER bytes.
  /// - Throws: ``CryptoError`` of kind `.malformedInput` if the text is not base64 or not a
  ///   certificate.
  public convenience init(base64Encoded: some StringProtocol) throws(CryptoError) {
    guard let data = Data(base64Encoded: String(base64Encoded)) else {
      throw CryptoError(
        .malformedInput,
        "a certificate given as \(base64Encoded.count) characters of base64 is not valid "
          + "standard base64")
    }
    try self.init(derRepresentation: data)
  }

  /// Loads the one certificate in PEM text.
  ///
  /// - Parameter pemRepresentation: Text with exactly one `-----BEGIN CERTIFICATE-----` block.
  /// - Throws: ``CryptoError`` if the text has no certificate or more than one (use
  ///   ``certificates(pemRepresentation:)`` for bundles), or a block does not decode.
  public convenience init(pemRepresentation: String) throws(CryptoError) {
    let certificates = try Self.certificates(pemRepresentation: pemRepresentation)
    guard certificates.count == 1, let only = certificates.first else {
      throw CryptoError(
        .invalidArgument,
        "the PEM text holds \(certificates.count) certificates where one was expected; load a "
          + "bundle with X509Certificate.certificates(pemRepresentation:)")
    }
    try self.init(derRepresentation: only.derRepresentation)
  }

  /// Every certificate in PEM text (a bundle), in order.
  ///
  /// - Parameter pemRepresentation: Text with one or more `-----BEGIN CERTIFICATE-----` blocks;
  ///   other blocks are skipped.
  /// - Returns: The certificates, at least one.
  /// - Throws: ``CryptoError`` of kind `.notPEM`, `.unexpectedPEMKind` (naming what was found)
  ///   or `.malformedInput`.
  public static func certificates(pemRepresentation: String) throws(CryptoError)
    -> [X509Certificate]
  {
    try certificates(pemBytes: Array(pemRepresentation.utf8), source: "the PEM text")
  }

  /// Every certificate in a file: PEM (one or many) or a single DER certificate (`.cer`).
  ///
  /// - Parameter path: The file's path.
  /// - Returns: The certificates, at least one.
  /// - Throws: ``CryptoError`` of kind `.fileAccess`, or as ``certificates(pemRepresentation:)``
  ///   and ``init(derRepresentation:)``.
  public static func certificates(contentsOfFile path: String) throws(CryptoError)
    -> [X509Certificate]
  {
    let bytes = try FileAccess.read(path, role: "the certificate file")
    // DER starts with a SEQUENCE tag; PEM text starts with printable characters.
    if bytes.first == 0x30 {
      do {
        return [try X509Certificate(derRepresentation: bytes)]
      } catch {
        throw CryptoError(
          .malformedInput, "the certificate file at \(path) is neither PEM nor DER X.509")
      }
    }
    return try certificates(pemBytes: bytes, source: "the certificate file at \(path)")
  }

  private static func certificates(pemBytes bytes: [UInt8], source: String) throws(CryptoError)
    -> [X509Certificate]
  {
    let labels = PEMLabels.find(in: bytes)
    guard !labels.isEmpty else {
      throw CryptoError(
        .notPEM, "\(source) holds no PEM block; expected -----BEGIN CERTIFICATE-----")
    }
    guard labels.contains(where: { $0 == "CERTIFICATE" || $0 == "X509 CERTIFICATE" }) else {
      let found = labels.map(PEMLabels.describe).joined(separator: ", ")
      throw CryptoError(
        .unexpectedPEMKind,
        "\(source) holds \(found), not a certificate (-----BEGIN CERTIFICATE-----)")
    }
    let bio = try MemoryBIO(copying: bytes)
    var certificates: [X509Certificate] = []
    while let certificate = PEM_read_bio_X509(bio.pointer, nil, nil, nil) {
      certificates.append(try X509Certificate(takingOwnershipOf: certificate))
    }
    // The loop ends when no further CERTIFICATE block starts; anything else is damage.
    let last = ERR_peek_last_error()
    guard ERR_GET_LIB(last) == ERR_LIB_PEM, ERR_GET_REASON(last) == PEM_R_NO_START_LINE else {
      throw CryptoError(
        .malformedInput,
        "\(source) has a CERTIFICATE block after \(certificates.count) good ones that does not "
          + "decode (damaged or truncated)")
    }
    OpenSSLErrorQueue.clear()
    return certificates
  }

  /// Wraps `certificate`, which this object frees, and reads its fields.
  convenience init(takingOwnershipOf certificate: OpaquePointer) throws(CryptoError) {
    var der: UnsafeMutablePointer<UInt8>?
    let length = i2d_X509(certificate, &der)
    guard length > 0, let der else {
      X509_free(certificate)
      throw CryptoError(.operationFailed, "OpenSSL could not encode a certificate as DER")
    }
    let bytes = Array(UnsafeBufferPointer(start: der, count: Int(length)))
    CRYPTO_free(der, #fileID, #line)
    try self.init(takingOwnershipOf: certificate, der: bytes)
  }

  /// Wraps another reference to `certificate` (which stays owned by its caller).
  convenience init(retaining certificate: OpaquePointer) throws(CryptoError) {
    X509_up_ref(certificate)
    try self.init(takingOwnershipOf: certificate)
  }

  private init(takingOwnershipOf certificate: OpaquePointer, der: [UInt8]) throws(CryptoError) {
    self.certificate = certificate
    derRepresentation = der
    subject = Self.oneLine(X509_get_subject_name(certificate))
    issuer = Self.oneLine(X509_get_issuer_name(certificate))
    serialNumber = Self.bytes(of: X509_get0_serialNumber(certificate))
    isCertificateAuthority = X509_get_extension_flags(certificate) & UInt32(EXFLAG_CA) != 0
    guard let start = Self.unixMilliseconds(X509_get0_notBefore(certificate)),
      let end = Self.unixMilliseconds(X509_get0_notAfter(certificate))
    else {
      // `deinit` frees the certificate: every stored property is initialized by now.
      notBefore = 0
      notAfter = 0
      throw CryptoError(
        .malformedInput, "the certificate \"\(subject)\" has a validity date OpenSSL cannot read")
    }
    notBefore = start
    notAfter = end
  }

  deinit {
    X509_free(certificate)
  }

  // MARK: - Export and identity

  /// The certificate as PEM text (`-----BEGIN CERTIFICATE-----`).
  public var pemRepresentation: String {
    PEMText.encode(derRepresentation, label: "CERTIFICATE")
  }

  /// The certificate as standard base64 DER, the form of a JWS header's `x5c` entries.
  public var base64Encoded: String {
    Data(derRepresentation).base64EncodedString()
  }

  /// The SHA-256 of the DER encoding as 64 uppercase hexadecimal digits, without separators
  /// (`openssl x509 -fingerprint -sha256` prints the same digits with colons).
  public var sha256Fingerprint: String {
    SHA256.hexDigest(derRepresentation, uppercase: true)
  }

  /// The serial number as uppercase hexadecimal, as `openssl x509 -serial` prints it.
  public var serialNumberHex: String {
    serialNumber.isEmpty ? "00" : Hex.encode(serialNumber, uppercase: true)
  }

  /// The subject, validity and fingerprint prefix on one line.
  public var description: String {
    "X509Certificate(subject: \(subject), issuer: \(issuer), serial: \(serialNumberHex), "
      + "sha256: \(sha256Fingerprint.prefix(16))…)"
  }

  /// Whether two certificates have the same DER encoding.
  ///
  /// - Parameters:
  ///   - lhs: A certificate.
  ///   - rhs: Another certificate.
  /// - Returns: `true` if their DER bytes are equal.
  public static func == (lhs: X509Certificate, rhs: X509Certificate) -> Bool {
    lhs.derRepresentation == rhs.derRepresentation
  }

  /// Hashes the certificate's DER encoding.
  ///
  /// - Parameter hasher: The hasher to feed.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(derRepresentation)
  }

  // MARK: - Contents

  /// Whether the certificate carries an extension with the given object identifier.
  ///
  /// Only presence is checked, not the value (Apple's marker extensions carry an ASN.1 NULL).
  ///
  /// - Parameter oid: A dotted object identifier, such as `1.2.840.113635.100.6.11.1`.
  /// - Returns: `true` if an extension with that identifier is present; `false` otherwise,
  ///   including when `oid` is not a valid dotted identifier.
  public func hasExtension(oid: String) -> Bool {
    // no_name = 1: interpret the text only as dotted digits, never as a short or long name.
    guard let object = OBJ_txt2obj(oid, 1) else {
      OpenSSLErrorQueue.clear()
      return false
    }
    defer { ASN1_OBJECT_free(object) }
    return X509_get_ext_by_OBJ(certificate, object, -1) >= 0
  }

  /// The certificate's subject public key.
  ///
  /// - Returns: The key, for verifying what the certificate's owner signed.
  /// - Throws: ``CryptoError`` of kind `.unsupportedKey` if the key is not on P-256.
  public func publicKey() throws(CryptoError) -> P256PublicKey {
    try P256PublicKey(certificate: self)
  }

  // MARK: - Field extraction

  /// A distinguished name on one line in RFC 2253 order (most specific first), UTF-8 unescaped.
  static func oneLine(_ name: OpaquePointer?) -> String {
    let bio: MemoryBIO
    do {
      bio = try MemoryBIO()
    } catch {
      // Only an allocation failure lands here; an empty name is an honest fallback for display.
      return ""
    }
    guard let name else { return "" }
    // RFC 2253 order and escaping, but with UTF-8 left readable instead of \XX-escaped.
    // XN_FLAG_RFC2253 is a compound macro Swift cannot import; these are its parts.
    let flags =
      UInt(ASN1_STRFLGS_ESC_2253 | ASN1_STRFLGS_ESC_CTRL | ASN1_STRFLGS_UTF8_CONVERT)
      | UInt(ASN1_STRFLGS_DUMP_UNKNOWN | ASN1_STRFLGS_DUMP_DER)
      | UInt(XN_FLAG_SEP_COMMA_PLUS | XN_FLAG_DN_REV | XN_FLAG_DUMP_UNKNOWN_FIELDS)
    guard X509_NAME_print_ex(bio.pointer, name, 0, flags) >= 0 else {
      OpenSSLErrorQueue.clear()
      return ""
    }
    return bio.text()
  }

  private static func bytes(of serial: UnsafePointer<ASN1_INTEGER>?) -> [UInt8] {
    guard let serial, let number = ASN1_INTEGER_to_BN(serial, nil) else { return [] }
    defer { BN_free(number) }
    var bytes = [UInt8](repeating: 0, count: Int((BN_num_bits(number) + 7) / 8))
    let count = BN_bn2bin(number, &bytes)
    return Array(bytes.prefix(Int(max(count, 0))))
  }

  /// An ASN.1 time as Unix milliseconds, or `nil` if OpenSSL cannot read it.
  static func unixMilliseconds(_ time: UnsafePointer<ASN1_TIME>?) -> Int64? {
    var parts = tm()
    guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
    let seconds = timegm(&parts)
    guard seconds != -1 || parts.tm_year == 69 else { return nil }
    return Int64(seconds) * 1000
  }
}
