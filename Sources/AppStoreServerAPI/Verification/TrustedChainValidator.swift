import Chronology
import CryptoSupport
import Synchronization

/// Steps 1–4 of JWS verification (header, algorithm, chain, Apple extensions, validity at the
/// signed date) for one set of trusted roots, with a cache of verified chains.
///
/// The cache is keyed by the exact bytes of the JWS header segment, which hold `alg` and every
/// `x5c` certificate: a hit proves the same chain was verified before, so the many thousand JWS
/// a backfill sees cost one chain verification per distinct chain. An entry remembers the span
/// in which all three certificates are valid; a `signedDate` outside it goes through full
/// verification again, which gives the precise reason.
final class TrustedChainValidator: Sendable {
  /// What a verified chain leaves behind: the key to check signatures with and where it holds.
  struct VerifiedChain: Sendable {
    let leafKey: P256PublicKey
    /// The latest `notBefore` of the chain, in milliseconds.
    let validFrom: Int64
    /// The earliest `notAfter` of the chain, in milliseconds (exclusive, as OpenSSL compares).
    let validUntil: Int64

    func covers(_ instant: Timestamp) -> Bool {
      // OpenSSL compares whole seconds, so the cache must too. Saturating: an instant within a
      // second of the earliest one has no whole second in range, and is before every chain.
      let second = Timestamp(secondsSince1970: instant.secondsSince1970).millisecondsSince1970
      return validFrom <= second && second < validUntil
    }
  }

  /// The exact bytes of a header segment, hashed in bulk: `[UInt8]`'s own hashing feeds the
  /// hasher one byte at a time, which for a 4 KB header cost more than the rest of a cache hit.
  struct HeaderKey: Hashable, Sendable {
    let bytes: [UInt8]
    /// Whether the chain was verified as local StoreKit testing's (see ``ChainRules``).
    let rules: ChainRules

    func hash(into hasher: inout Hasher) {
      bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
      hasher.combine(rules)
    }
  }

  /// Which chains a verification accepts.
  enum ChainRules: Hashable, Sendable {
    /// The App Store's: exactly three certificates, leaf and intermediate with Apple's
    /// extensions, to a configured root.
    case appStore
    /// StoreKit testing in Xcode and local testing: Xcode signs with a certificate of its own
    /// ("StoreKit Testing in Xcode", one self-signed certificate in `x5c`), which the team
    /// exports and configures as the root. Any non-empty chain to a configured root is
    /// accepted, without Apple's extensions, which such certificates do not carry.
    case localTesting
  }

  let trustedRoots: [X509Certificate]
  private let verifier: CertificateChainVerifier
  private let cache = Mutex<[HeaderKey: VerifiedChain]>([:])

  /// Apple rotates signing chains rarely; a bound keeps hostile input from growing the cache.
  static let cacheCapacity = 64

  init(trustedRoots: [X509Certificate]) throws(CryptoError) {
    self.trustedRoots = trustedRoots
    verifier = try CertificateChainVerifier(trustedRoots: trustedRoots)
  }

  /// The leaf key of the chain in `header` (a base64url header segment), verified at `signedDate`.
  func leafKey(
    header: UnsafeBufferPointer<UInt8>, signedDate: Timestamp, rules: ChainRules = .appStore
  )
    throws(VerificationFailure) -> P256PublicKey
  {
    let key = HeaderKey(bytes: Array(header), rules: rules)
    if let cached = cache.withLock({ $0[key] }), cached.covers(signedDate) {
      return cached.leafKey
    }
    let chain = try verifyChain(header: header, signedDate: signedDate, rules: rules)
    cache.withLock { entries in
      if entries.count >= Self.cacheCapacity { entries.removeAll(keepingCapacity: true) }
      entries[key] = chain
    }
    return chain.leafKey
  }

  // MARK: - Full verification

  private func verifyChain(
    header: UnsafeBufferPointer<UInt8>, signedDate: Timestamp, rules: ChainRules
  )
    throws(VerificationFailure) -> VerifiedChain
  {
    let parsed = try JWSHeader.parse(segment: header)
    // Apple's verifiers look for the chain before the algorithm: a JWS without `x5c` is
    // rejected for that, whatever its `alg`.
    guard !parsed.x5c.isEmpty else { throw .missingCertificateChain }
    guard parsed.algorithm == "ES256" else {
      throw .wrongAlgorithm(found: parsed.algorithm)
    }
    guard parsed.x5c.count == 3 || rules == .localTesting else {
      throw .chainLength(found: parsed.x5c.count)
    }
    var certificates: [X509Certificate] = []
    for (index, text) in parsed.x5c.enumerated() {
      do {
        certificates.append(try X509Certificate(base64Encoded: text))
      } catch {
        throw .malformed("x5c[\(index)] is not a base64 DER certificate (\(error.message))")
      }
    }
    let leaf = certificates[0]
    let verdict = verifier.verify(
      leaf: leaf, intermediates: Array(certificates.dropFirst()),
      at: signedDate.millisecondsSince1970)
    let path: [X509Certificate]
    switch verdict {
    case .valid(let chain):
      path = chain
    case .invalid(let failure):
      switch failure {
      case .expired, .notYetValid:
        throw .certificateNotValidAtSignedDate(failure, signedDate: signedDate)
      default:
        throw .untrustedChain(failure)
      }
    }
    if rules == .appStore {
      let intermediate = certificates[1]
      guard leaf.hasExtension(oid: AppleCertificateExtension.appStoreSigningLeaf) else {
        throw .missingAppleExtension(
          certificate: leaf.subject, oid: AppleCertificateExtension.appStoreSigningLeaf)
      }
      guard
        intermediate.hasExtension(oid: AppleCertificateExtension.developerRelationsIntermediate)
      else {
        throw .missingAppleExtension(
          certificate: intermediate.subject,
          oid: AppleCertificateExtension.developerRelationsIntermediate)
      }
    }
    let leafKey: P256PublicKey
    do {
      leafKey = try leaf.publicKey()
    } catch {
      throw .malformed("the leaf certificate's key cannot sign ES256 (\(error.message))")
    }
    let validated = path.isEmpty ? certificates : path
    return VerifiedChain(
      leafKey: leafKey,
      validFrom: validated.map(\.notBefore).max() ?? .max,
      validUntil: validated.map(\.notAfter).min() ?? .min)
  }
}
