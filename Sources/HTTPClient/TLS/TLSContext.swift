import COpenSSL

/// The client's TLS settings as one OpenSSL `SSL_CTX`: TLS 1.2 or later, peer verification
/// always on, the system's trust store plus any certificates the configuration adds.
///
/// `@unchecked Sendable`: the context is configured completely in `init` and never changed
/// afterwards; OpenSSL allows any number of threads to create sessions from a context that is
/// no longer being configured.
final class TLSContext: @unchecked Sendable {
  /// The `SSL_CTX *`.
  let context: OpaquePointer

  /// A context trusting the system's store and `additionalTrustedPEM`.
  ///
  /// - Parameter additionalTrustedPEM: PEM certificates to trust besides the system's.
  /// - Throws: ``HTTPClientError/Kind/tlsFailure`` when OpenSSL cannot make a context or a
  ///   certificate is not PEM.
  init(additionalTrustedPEM: [String]) throws(HTTPClientError) {
    guard let context = SSL_CTX_new(TLS_client_method()) else {
      throw HTTPClientError(
        .tlsFailure, "OpenSSL cannot create a TLS client context (\(Self.lastErrorText()))")
    }
    self.context = context
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
    guard receipt_migrate_SSL_CTX_require_tls12(context) == 1,
      SSL_CTX_set_default_verify_paths(context) == 1
    else {
      throw HTTPClientError(
        .tlsFailure,
        "OpenSSL cannot load the system's trust store (\(Self.lastErrorText())); install the "
          + "ca-certificates package")
    }
    receipt_migrate_SSL_CTX_ignore_unexpected_eof(context)
    let store = SSL_CTX_get_cert_store(context)
    for (index, pem) in additionalTrustedPEM.enumerated() {
      let added = pem.withCString { text -> Bool in
        guard let bio = BIO_new_mem_buf(text, -1) else { return false }
        defer { BIO_free(bio) }
        var any = false
        while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
          defer { X509_free(certificate) }
          guard X509_STORE_add_cert(store, certificate) == 1 else { return false }
          any = true
        }
        ERR_clear_error()  // the end of the PEM text leaves a "no start line" error behind
        return any
      }
      guard added else {
        throw HTTPClientError(
          .tlsFailure,
          "additional trusted certificate \(index + 1) is not a PEM certificate OpenSSL can add")
      }
    }
  }

  deinit {
    SSL_CTX_free(context)
  }

  /// The oldest error on this thread's OpenSSL error queue as text, and the queue cleared.
  static func lastErrorText() -> String {
    let code = ERR_get_error()
    ERR_clear_error()
    guard code != 0 else { return "no OpenSSL error recorded" }
    var buffer = [CChar](repeating: 0, count: 256)
    ERR_error_string_n(code, &buffer, buffer.count)
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
