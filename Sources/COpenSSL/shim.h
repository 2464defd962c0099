// The OpenSSL headers receipt-migrate uses. CryptoSupport imports this module for signatures and
// certificates, HTTPClient for TLS (libssl).
#ifndef RECEIPT_MIGRATE_COPENSSL_SHIM_H
#define RECEIPT_MIGRATE_COPENSSL_SHIM_H

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

// Function-like macros Swift cannot import, as inline functions.

/// SSL_set_tlsext_host_name: the server name (SNI) sent in the ClientHello.
static inline int receipt_migrate_SSL_set_server_name(SSL *ssl, const char *name) {
  return (int)SSL_set_tlsext_host_name(ssl, name);
}

/// SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION): nothing older than TLS 1.2.
static inline int receipt_migrate_SSL_CTX_require_tls12(SSL_CTX *context) {
  return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}

/// SSL_OP_IGNORE_UNEXPECTED_EOF: a peer that closes without close_notify ends the stream, as it
/// did before OpenSSL 3; the HTTP framing, not TLS, says whether a body is complete.
static inline void receipt_migrate_SSL_CTX_ignore_unexpected_eof(SSL_CTX *context) {
  SSL_CTX_set_options(context, SSL_OP_IGNORE_UNEXPECTED_EOF);
}

#endif
