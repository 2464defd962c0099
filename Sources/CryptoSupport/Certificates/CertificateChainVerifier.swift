import COpenSSL

/// Decides whether a certificate chains to one of a fixed set of trusted roots at a given instant.
///
/// This is rule 2 and 4 of App Store JWS verification: the leaf and the intermediates a message
/// carries are only ever *untrusted* material for building a path; trust comes solely from the
/// roots given at construction. A root that arrives with the message (such as `x5c[2]`) is never
/// trusted because it was presented, only because an equal certificate was configured.
///
/// Validity is checked at a caller-given instant rather than "now", so that stored signed data
/// stays verifiable after its certificates expire.
///
/// Thread safety: one verifier may be used from many threads at once. The trust store is built in
/// `init` and never changed (OpenSSL 3 locks its internal lookups); every call to
/// ``verify(leaf:intermediates:at:)`` makes its own `X509_STORE_CTX`.
public final class CertificateChainVerifier: @unchecked Sendable {
  // @unchecked Sendable is sound: `store` is populated in init and only read afterwards (OpenSSL
  // guards the store's internal lookups with its own lock); `trustedRoots` is an immutable array
  // of Sendable values.

  private let store: OpaquePointer

  /// The certificates this verifier trusts as anchors.
  public let trustedRoots: [X509Certificate]

  /// Creates a verifier that trusts exactly `trustedRoots`.
  ///
  /// With no roots, nothing verifies: every chain is reported as untrusted (fail closed).
  ///
  /// - Parameter trustedRoots: Self-signed root certificates, such as Apple Root CA - G3 in
  ///   production or the simulator's own root in tests.
  /// - Throws: ``CryptoError`` if OpenSSL cannot build the trust store.
  public init(trustedRoots: [X509Certificate]) throws(CryptoError) {
    guard let store = X509_STORE_new() else {
      throw CryptoError(.operationFailed, "OpenSSL could not allocate a certificate store")
    }
    self.store = store
    self.trustedRoots = trustedRoots
    for root in trustedRoots where X509_STORE_add_cert(store, root.certificate) != 1 {
      // Adding the same certificate twice is reported as an error that does no harm.
      let last = ERR_peek_last_error()
      if ERR_GET_REASON(last) == X509_R_CERT_ALREADY_IN_HASH_TABLE {
        OpenSSLErrorQueue.clear()
        continue
      }
      throw CryptoError(
        .operationFailed, "OpenSSL could not add the root \"\(root.subject)\" to the trust store")
    }
  }

  deinit {
    X509_STORE_free(store)
  }

  /// Verifies that `leaf` chains through `intermediates` to a trusted root, with every
  /// certificate valid at `instant`.
  ///
  /// - Parameters:
  ///   - leaf: The certificate whose key signed the data.
  ///   - intermediates: Untrusted certificates that may complete the path, in any order; a copy
  ///     of the root may be among them and is ignored for trust.
  ///   - instant: The moment at which the chain must be valid, in Unix milliseconds (for a JWS,
  ///     its `signedDate`). Certificates carry whole seconds, so the instant is truncated to the
  ///     second; a certificate is valid from its `notBefore` second up to, but not including, its
  ///     `notAfter` second (OpenSSL's comparison).
  /// - Returns: `.valid` with the path from leaf to root, or `.invalid` with the precise reason.
  public func verify(
    leaf: X509Certificate, intermediates: [X509Certificate], at instant: Int64
  ) -> CertificateChainVerification {
    guard let context = X509_STORE_CTX_new() else {
      return .invalid(.other(certificate: nil, code: -1, reason: "out of memory"))
    }
    defer { X509_STORE_CTX_free(context) }
    guard let untrusted = OPENSSL_sk_new_null() else {
      return .invalid(.other(certificate: nil, code: -1, reason: "out of memory"))
    }
    // The stack borrows the certificates; they outlive it because the arguments are held below.
    defer { OPENSSL_sk_free(untrusted) }
    for certificate in intermediates {
      guard OPENSSL_sk_push(untrusted, UnsafeRawPointer(certificate.certificate)) > 0 else {
        return .invalid(.other(certificate: nil, code: -1, reason: "out of memory"))
      }
    }
    return withExtendedLifetime((leaf, intermediates)) {
      guard X509_STORE_CTX_init(context, store, leaf.certificate, untrusted) == 1 else {
        OpenSSLErrorQueue.clear()
        return .invalid(
          .other(certificate: nil, code: -1, reason: "OpenSSL could not start verification"))
      }
      let parameters = X509_STORE_CTX_get0_param(context)
      X509_VERIFY_PARAM_set_time(parameters, time_t(Self.checkSecond(of: instant)))
      X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_USE_CHECK_TIME))
      guard X509_verify_cert(context) == 1 else {
        let failure = failure(in: context, instant: instant)
        OpenSSLErrorQueue.clear()
        return .invalid(failure)
      }
      return .valid(chain: verifiedChain(of: context))
    }
  }

  /// The second OpenSSL checks validity at: the instant's, held within the years 1 to 9999.
  ///
  /// An X.509 validity is written in those years, so every certificate is valid at the instant
  /// exactly when it is valid at the second clamped into them; OpenSSL itself cannot turn a
  /// second hundreds of millions of years away into a time to compare, and reports it as a
  /// malformed field rather than as a date outside the validity.
  static func checkSecond(of instant: Int64) -> Int64 {
    // 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
    min(max(UnixSeconds.floor(milliseconds: instant), -62_135_596_800), 253_402_300_799)
  }

  // MARK: - Results

  private func verifiedChain(of context: OpaquePointer) -> [X509Certificate] {
    guard let chain = X509_STORE_CTX_get0_chain(context) else { return [] }
    var certificates: [X509Certificate] = []
    for index in 0..<OPENSSL_sk_num(chain) {
      guard let raw = OPENSSL_sk_value(chain, index) else { break }
      do {
        certificates.append(try X509Certificate(retaining: OpaquePointer(raw)))
      } catch {
        // Re-encoding a certificate OpenSSL just verified fails only when memory runs out; the
        // verdict stands, and the chain is reported as far as it could be copied.
        break
      }
    }
    return certificates
  }

  private func failure(in context: OpaquePointer, instant: Int64) -> CertificateChainFailure {
    let code = X509_STORE_CTX_get_error(context)
    let current = X509_STORE_CTX_get_current_cert(context)
    let subject = current.map { X509Certificate.oneLine(X509_get_subject_name($0)) } ?? "unknown"
    switch code {
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
      X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN, X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT,
      X509_V_ERR_CERT_UNTRUSTED, X509_V_ERR_CERT_REJECTED:
      return .untrusted(certificate: subject)
    case X509_V_ERR_CERT_HAS_EXPIRED:
      let notAfter = current.flatMap { X509Certificate.unixMilliseconds(X509_get0_notAfter($0)) }
      return .expired(certificate: subject, notAfter: notAfter ?? 0, instant: instant)
    case X509_V_ERR_CERT_NOT_YET_VALID:
      let notBefore = current.flatMap {
        X509Certificate.unixMilliseconds(X509_get0_notBefore($0))
      }
      return .notYetValid(certificate: subject, notBefore: notBefore ?? 0, instant: instant)
    case X509_V_ERR_CERT_SIGNATURE_FAILURE, X509_V_ERR_UNABLE_TO_DECRYPT_CERT_SIGNATURE,
      X509_V_ERR_UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY:
      return .badSignature(certificate: subject)
    case X509_V_ERR_INVALID_CA, X509_V_ERR_KEYUSAGE_NO_CERTSIGN:
      return .notCertificateAuthority(certificate: subject)
    case X509_V_ERR_PATH_LENGTH_EXCEEDED:
      return .pathLengthExceeded(certificate: subject)
    default:
      let reason = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) }
      return .other(certificate: subject, code: code, reason: reason ?? "error \(code)")
    }
  }
}
