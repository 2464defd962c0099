import COpenSSL

/// PKCS#7 `signedData` (RFC 2315), the envelope of App Store app receipts.
///
/// Verification checks the signature with OpenSSL and then the signer's certificate chain with a
/// ``CertificateChainVerifier``, at a caller-given instant and against caller-configured roots
/// only: certificates embedded in the envelope are material for building the path, never trust.
public enum PKCS7SignedData {
  // MARK: - Signing

  /// Signs `content` and returns a `signedData` envelope that embeds it.
  ///
  /// The envelope carries the signer's certificate and `additionalCertificates`, a SHA-256 digest,
  /// and no signed attributes (like Apple's receipts, and so no signing time from the wall clock).
  ///
  /// - Parameters:
  ///   - content: The bytes to sign (for a receipt, its ASN.1 payload).
  ///   - signer: The signing certificate and its key.
  ///   - additionalCertificates: Certificates to embed for path building (the intermediate).
  ///   - encoding: DER, or BER with indefinite lengths as Apple's receipts use.
  /// - Returns: The encoded `ContentInfo`.
  /// - Throws: ``CryptoError`` if OpenSSL cannot sign.
  public static func sign(
    content: some Sequence<UInt8>, signer: CertifiedKey,
    additionalCertificates: [X509Certificate] = [], encoding: Encoding = .der
  ) throws(CryptoError) -> [UInt8] {
    let contentBytes = Array(content)
    let input = try MemoryBIO(copying: contentBytes)
    guard let certificates = OPENSSL_sk_new_null() else {
      throw CryptoError(.operationFailed, "OpenSSL could not allocate a certificate list")
    }
    defer { OPENSSL_sk_free(certificates) }
    for certificate in additionalCertificates
    where OPENSSL_sk_push(certificates, UnsafeRawPointer(certificate.certificate)) <= 0 {
      throw CryptoError(.operationFailed, "OpenSSL could not allocate a certificate list")
    }
    var flags = Int32(PKCS7_BINARY | PKCS7_NOATTR)
    if encoding == .indefiniteLengthBER { flags |= Int32(PKCS7_STREAM) }
    return try withExtendedLifetime((signer, additionalCertificates)) { () throws(CryptoError) in
      guard
        let envelope = PKCS7_sign(
          signer.certificate.certificate, signer.privateKey.key, certificates, input.pointer,
          flags)
      else {
        throw CryptoError(
          .operationFailed,
          "OpenSSL could not sign \(contentBytes.count) bytes as PKCS#7 with the certificate "
            + "\"\(signer.certificate.subject)\"")
      }
      defer { PKCS7_free(envelope) }
      let output = try MemoryBIO()
      let written: Int32
      switch encoding {
      case .der:
        written = i2d_PKCS7_bio(output.pointer, envelope)
      case .indefiniteLengthBER:
        // Streaming reads the content from `input` now and writes every constructed value with
        // an indefinite length.
        written = i2d_PKCS7_bio_stream(output.pointer, envelope, input.pointer, flags)
      }
      guard written == 1 else {
        throw CryptoError(.operationFailed, "OpenSSL could not encode the PKCS#7 envelope")
      }
      return output.contents()
    }
  }

  // MARK: - Verification

  /// Verifies a `signedData` envelope and returns the content it signs.
  ///
  /// - Parameters:
  ///   - envelope: The DER or BER bytes (indefinite lengths are accepted).
  ///   - verifier: The trusted roots, as a verifier that may be shared between calls.
  ///   - instant: The moment at which the signer's chain must be valid, in Unix milliseconds.
  /// - Returns: `.valid` with the content and signer certificate, or `.invalid` with the reason.
  public static func verify(
    _ envelope: some Sequence<UInt8>, using verifier: CertificateChainVerifier, at instant: Int64
  ) -> PKCS7Verification {
    let bytes = Array(envelope)
    let decoded = bytes.withUnsafeBytes { input -> UnsafeMutablePointer<PKCS7>? in
      let start = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
      var cursor = start
      guard let parsed = d2i_PKCS7(nil, &cursor, input.count) else { return nil }
      guard let start, let cursor, cursor == start + input.count else {
        PKCS7_free(parsed)
        return nil
      }
      return parsed
    }
    guard let decoded else {
      OpenSSLErrorQueue.clear()
      return .invalid(
        .malformed("the \(bytes.count) bytes are not one DER or BER PKCS#7 ContentInfo"))
    }
    defer { PKCS7_free(decoded) }
    return verify(decoded, using: verifier, at: instant)
  }

  /// Verifies a `signedData` envelope against `trustedRoots`, as
  /// ``verify(_:using:at:)``; prefer that form to reuse one verifier across many envelopes.
  ///
  /// - Parameters:
  ///   - envelope: The DER or BER bytes.
  ///   - trustedRoots: The root certificates to trust.
  ///   - instant: The moment at which the signer's chain must be valid, in Unix milliseconds.
  /// - Returns: `.valid` with the content and signer certificate, or `.invalid` with the reason.
  public static func verify(
    _ envelope: some Sequence<UInt8>, trustedRoots: [X509Certificate], at instant: Int64
  ) -> PKCS7Verification {
    do {
      let verifier = try CertificateChainVerifier(trustedRoots: trustedRoots)
      return verify(envelope, using: verifier, at: instant)
    } catch {
      return .invalid(.internalFailure(error.description))
    }
  }

  private static func verify(
    _ envelope: UnsafeMutablePointer<PKCS7>, using verifier: CertificateChainVerifier,
    at instant: Int64
  ) -> PKCS7Verification {
    let type = OBJ_obj2nid(envelope.pointee.type)
    guard type == NID_pkcs7_signed, let signed = envelope.pointee.d.sign else {
      let name = OBJ_nid2ln(type).map { String(cString: $0) } ?? "an unknown type"
      return .invalid(.notSignedData(contentType: name))
    }
    // PKCS7_get_detached is a macro over PKCS7_ctrl.
    guard PKCS7_ctrl(envelope, PKCS7_OP_GET_DETACHED_SIGNATURE, 0, nil) == 0 else {
      return .invalid(.detachedContent)
    }
    let signerCount = OPENSSL_sk_num(signed.pointee.signer_info)
    guard signerCount == 1 else {
      return .invalid(.signerCount(Int(max(signerCount, 0))))
    }
    guard let signers = PKCS7_get0_signers(envelope, nil, 0) else {
      OpenSSLErrorQueue.clear()
      return .invalid(.signerCertificateMissing)
    }
    defer { OPENSSL_sk_free(signers) }
    guard let rawSigner = OPENSSL_sk_value(signers, 0) else {
      return .invalid(.signerCertificateMissing)
    }
    let signer: X509Certificate
    var embedded: [X509Certificate] = []
    do {
      signer = try X509Certificate(retaining: OpaquePointer(rawSigner))
      if let certificates = signed.pointee.cert {
        for index in 0..<OPENSSL_sk_num(certificates) {
          if let raw = OPENSSL_sk_value(certificates, index) {
            embedded.append(try X509Certificate(retaining: OpaquePointer(raw)))
          }
        }
      }
    } catch {
      return .invalid(.internalFailure(error.description))
    }

    let content: [UInt8]
    switch checkSignature(of: envelope) {
    case .success(let bytes): content = bytes
    case .failure(let failure): return .invalid(failure)
    }

    let intermediates = embedded.filter { $0 != signer }
    switch verifier.verify(leaf: signer, intermediates: intermediates, at: instant) {
    case .valid:
      return .valid(content: content, signer: signer)
    case .invalid(let failure):
      return .invalid(.untrustedSigner(failure))
    }
  }

  /// Checks the signature over the embedded content and returns the content.
  private static func checkSignature(of envelope: UnsafeMutablePointer<PKCS7>)
    -> Result<[UInt8], PKCS7Failure>
  {
    let output: MemoryBIO
    do {
      output = try MemoryBIO()
    } catch {
      return .failure(.internalFailure(error.description))
    }
    // NOVERIFY: the chain is checked afterwards by CertificateChainVerifier, at the caller's
    // instant and without OpenSSL's S/MIME purpose rules, which receipts do not follow.
    let flags = Int32(PKCS7_NOVERIFY | PKCS7_BINARY)
    guard PKCS7_verify(envelope, nil, nil, nil, output.pointer, flags) == 1 else {
      let reasons = OpenSSLErrorQueue.drain()
      return .failure(.badSignature(openSSLReasons: reasons))
    }
    return .success(output.contents())
  }
}
