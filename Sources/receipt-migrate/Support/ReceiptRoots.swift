import CryptoSupport

/// Loads the `--receipt-root` certificates that raw receipts' signatures are checked against.
enum ReceiptRoots {
  static func verifier(paths: [String]) throws -> CertificateChainVerifier? {
    guard !paths.isEmpty else { return nil }
    var roots: [X509Certificate] = []
    for path in paths {
      do {
        roots += try X509Certificate.certificates(contentsOfFile: path)
      } catch {
        throw ToolFailure.configuration(
          "the receipt root certificate at \(path) cannot be used: \(error)")
      }
    }
    return try CertificateChainVerifier(trustedRoots: roots)
  }
}
