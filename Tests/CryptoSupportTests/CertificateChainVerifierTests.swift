import CryptoSupport
import Testing

@Suite("Certificate chain verification")
struct CertificateChainVerifierTests {
  typealias Instant = Fixture.Instant
  let specification = CertificateAuthorityChain.Specification.appStoreLike(
    notBefore: Instant.start, notAfter: Instant.end)

  func verify(
    _ chain: CertificateAuthorityChain, trusting roots: [X509Certificate]? = nil,
    presenting intermediates: [X509Certificate]? = nil,
    at instant: Int64 = Instant.start
      + Fixture.Instant.day
  ) throws -> CertificateChainVerification {
    let verifier = try CertificateChainVerifier(trustedRoots: roots ?? [chain.root.certificate])
    return verifier.verify(
      leaf: chain.leaf.certificate,
      intermediates: intermediates ?? [chain.intermediate.certificate], at: instant)
  }

  @Test("a chain to the configured root verifies and reports the path leaf → root")
  func valid() throws {
    let chain = try CertificateAuthorityChain.generate(specification)
    let result = try verify(chain)
    #expect(
      result
        == .valid(chain: [
          chain.leaf.certificate, chain.intermediate.certificate, chain.root.certificate,
        ]))
    // Presenting the root as well (as x5c does) changes nothing.
    let withRoot = try verify(
      chain, presenting: [chain.intermediate.certificate, chain.root.certificate])
    #expect(withRoot.isValid)
  }

  @Test("a chain to another root is untrusted, even when it presents its own root")
  func untrusted() throws {
    let chain = try CertificateAuthorityChain.generate(specification)
    let other = try CertificateAuthorityChain.generate(specification)
    // Same subject names, different keys: only the key identifiers and signatures tell them apart.
    #expect(chain.root.certificate.subject == other.root.certificate.subject)
    let presentingRoot = try verify(
      chain, trusting: [other.root.certificate],
      presenting: [chain.intermediate.certificate, chain.root.certificate])
    #expect(
      presentingRoot.failure == .untrusted(certificate: chain.root.certificate.subject)
        || presentingRoot.failure == .untrusted(certificate: chain.intermediate.certificate.subject)
    )
    let withoutRoot = try verify(chain, trusting: [other.root.certificate])
    #expect(withoutRoot.failure == .untrusted(certificate: chain.intermediate.certificate.subject))
    let message = try #require(withoutRoot.failure).description
    #expect(message.contains("does not lead to a trusted root"))
  }

  /// The instant is a signed value's `signedDate`, read before its signature is checked: within
  /// a second of `Int64.min` it once trapped the floor division (Fuzz/Regressions/jws).
  static let extremeInstants: [Int64] = [
    .min, .min + 1, .min + 998, .min + 999, .min + 1000, .max - 999, .max,
  ]

  @Test(
    "an instant at the edges of 64 bits is a failure with a reason, never a trap",
    arguments: Self.extremeInstants)
  func extremeInstant(instant: Int64) throws {
    let chain = try CertificateAuthorityChain.generate(specification)
    let result = try verify(chain, at: instant)
    let failure = try #require(result.failure, "\(instant) verified")
    #expect(!failure.description.isEmpty)
  }

  @Test("with no configured roots nothing verifies")
  func noRoots() throws {
    let chain = try CertificateAuthorityChain.generate(specification)
    let result = try verify(chain, trusting: [])
    #expect(result.failure == .untrusted(certificate: chain.intermediate.certificate.subject))
  }

  @Test("a leaf without its intermediate is untrusted")
  func missingIntermediate() throws {
    let chain = try CertificateAuthorityChain.generate(specification)
    let result = try verify(chain, presenting: [])
    #expect(result.failure == .untrusted(certificate: chain.leaf.certificate.subject))
  }

  @Test("an expired leaf fails now but verifies at the instant it signed")
  func expiredLeaf() throws {
    var specification = self.specification
    specification.leaf.notAfter = Instant.start + 10 * Instant.day
    let chain = try CertificateAuthorityChain.generate(specification)
    let signedDate = Instant.start + 5 * Instant.day
    let now = Instant.start + 100 * Instant.day
    #expect(try verify(chain, at: signedDate).isValid)
    let result = try verify(chain, at: now)
    #expect(
      result.failure
        == .expired(
          certificate: chain.leaf.certificate.subject, notAfter: specification.leaf.notAfter,
          instant: now))
    let message = try #require(result.failure).description
    #expect(message.contains("had expired"))
    #expect(message.contains("2024-01-11T00:00:00Z"))
    #expect(message.contains(chain.leaf.certificate.subject))
  }

  @Test("validity runs from notBefore to just before notAfter, to the second (OpenSSL's rule)")
  func bounds() throws {
    var specification = self.specification
    specification.leaf.notBefore = Instant.start + 2 * Instant.day
    specification.leaf.notAfter = Instant.start + 3 * Instant.day
    let chain = try CertificateAuthorityChain.generate(specification)
    #expect(try !verify(chain, at: specification.leaf.notBefore - 1).isValid)
    #expect(try verify(chain, at: specification.leaf.notBefore).isValid)
    #expect(try verify(chain, at: specification.leaf.notAfter - 1).isValid)
    #expect(try !verify(chain, at: specification.leaf.notAfter).isValid)
  }

  @Test("a leaf not yet valid at the instant names itself and its start")
  func notYetValid() throws {
    var specification = self.specification
    specification.leaf.notBefore = Instant.start + 5 * Instant.day
    let chain = try CertificateAuthorityChain.generate(specification)
    let instant = Instant.start + 2 * Instant.day
    let result = try verify(chain, at: instant)
    #expect(
      result.failure
        == .notYetValid(
          certificate: chain.leaf.certificate.subject, notBefore: specification.leaf.notBefore,
          instant: instant))
  }

  @Test("an expired intermediate names the intermediate")
  func expiredIntermediate() throws {
    var specification = self.specification
    specification.intermediate.notAfter = Instant.start + 10 * Instant.day
    let chain = try CertificateAuthorityChain.generate(specification)
    let instant = Instant.start + 20 * Instant.day
    let result = try verify(chain, at: instant)
    #expect(
      result.failure
        == .expired(
          certificate: chain.intermediate.certificate.subject,
          notAfter: specification.intermediate.notAfter, instant: instant))
  }

  @Test("a leaf whose signature was altered has a bad signature")
  func badSignature() throws {
    let chain = try CertificateAuthorityChain.generate(specification)
    // The last byte of a certificate is the last byte of s in its ECDSA signature.
    var der = chain.leaf.certificate.derRepresentation
    der[der.count - 1] ^= 0x01
    let forged = try X509Certificate(derRepresentation: der)
    let verifier = try CertificateChainVerifier(trustedRoots: [chain.root.certificate])
    let result = verifier.verify(
      leaf: forged, intermediates: [chain.intermediate.certificate],
      at: Instant.start + Instant.day)
    #expect(result.failure == .badSignature(certificate: forged.subject))
  }

  @Test("an intermediate not marked as a CA cannot issue the leaf")
  func intermediateNotCA() throws {
    var specification = self.specification
    specification.intermediate.isCertificateAuthority = false
    specification.intermediate.pathLengthConstraint = nil
    let chain = try CertificateAuthorityChain.generate(specification)
    #expect(!chain.intermediate.certificate.isCertificateAuthority)
    let result = try verify(chain)
    #expect(
      result.failure
        == .notCertificateAuthority(certificate: chain.intermediate.certificate.subject))
  }

  @Test("a root limited to path length 0 cannot have an intermediate CA below it")
  func pathLength() throws {
    var specification = self.specification
    specification.root.pathLengthConstraint = 0
    let chain = try CertificateAuthorityChain.generate(specification)
    let result = try verify(chain)
    let failure = try #require(result.failure)
    guard case .pathLengthExceeded = failure else {
      Issue.record("expected pathLengthExceeded, got \(failure)")
      return
    }
  }

  @Test("one verifier serves many concurrent tasks")
  func concurrent() async throws {
    let chain = try CertificateAuthorityChain.generate(specification)
    let other = try CertificateAuthorityChain.generate(specification)
    let verifier = try CertificateChainVerifier(trustedRoots: [chain.root.certificate])
    let outcomes = await withTaskGroup(of: (Bool, Bool).self) { group in
      for _ in 0..<16 {
        group.addTask {
          let good = verifier.verify(
            leaf: chain.leaf.certificate, intermediates: [chain.intermediate.certificate],
            at: Instant.start + Instant.day)
          let bad = verifier.verify(
            leaf: other.leaf.certificate, intermediates: [other.intermediate.certificate],
            at: Instant.start + Instant.day)
          return (good.isValid, bad.isValid)
        }
      }
      return await group.reduce(into: [(Bool, Bool)]()) { $0.append($1) }
    }
    #expect(outcomes.count == 16)
    #expect(outcomes.allSatisfy { $0.0 && !$0.1 })
  }

  @Test(
    "every failure names the certificate and the reason",
    arguments: [
      (CertificateChainFailure.badSignature(certificate: "CN=A"), "does not verify"),
      (.notCertificateAuthority(certificate: "CN=A"), "is not a certificate authority"),
      (.pathLengthExceeded(certificate: "CN=A"), "path-length constraint"),
      (.notYetValid(certificate: "CN=A", notBefore: 1_000, instant: 0), "1970-01-01T00:00:01Z"),
      (
        .other(certificate: "CN=A", code: 34, reason: "unhandled critical extension"),
        "unhandled critical extension (OpenSSL verify error 34)"
      ),
    ])
  func descriptions(failure: CertificateChainFailure, phrase: String) {
    #expect(failure.description.contains("\"CN=A\""))
    #expect(failure.description.contains(phrase), "\(failure)")
  }
}
