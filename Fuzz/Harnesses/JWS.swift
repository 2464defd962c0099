// libFuzzer harness for the compact JWS parser and verifier (Sources/AppStoreServerAPI): the
// path every signedTransactionInfo, signedRenewalInfo, signedAppTransactionInfo and
// notification signedPayload takes, and `receipt-migrate decode`.
//
// The input is a compact JWS. Its header is parsed alone, then the whole value is verified as
// each kind against test roots (Apple's published test vectors and the simulator's), read as a
// notification that failed verification is read (without trust, for the customer it names),
// and shown by the inspector behind `decode`, which picks the kind and the expected app from the
// payload. An input starting with 0xFF is numbers instead, signed into values of every kind (see
// SignedNumbers.swift). Any verdict is fine; crashes, hangs and broken invariants (`invariant`)
// are findings.

import Chronology
import CryptoSupport

@testable import AppStoreServerAPI

/// The roots of Apple's signed test vectors (Tests/AppStoreServerAPITests/Fixtures, MIT licence)
/// and the simulator's root (Legacy/sample/signing/root.pem): test roots, trusted only here.
let roots: [X509Certificate] = [
  "MIIBgjCCASmgAwIBAgIJALUc5ALiH5pbMAoGCCqGSM49BAMDMDYxCzAJBgNVBAYTAlVTMRMwEQYDVQQIDApDYWxpZm9ybm"
    + "lhMRIwEAYDVQQHDAlDdXBlcnRpbm8wHhcNMjMwMTA1MjEzMDIyWhcNMzMwMTAyMjEzMDIyWjA2MQswCQYDVQQGEwJVUzET"
    + "MBEGA1UECAwKQ2FsaWZvcm5pYTESMBAGA1UEBwwJQ3VwZXJ0aW5vMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEc+/Bl+"
    + "gospo6tf9Z7io5tdKdrlN1YdVnqEhEDXDShzdAJPQijamXIMHf8xWWTa1zgoYTxOKpbuJtDplz1XriTaMgMB4wDAYDVR0T"
    + "BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAQYwCgYIKoZIzj0EAwMDRwAwRAIgemWQXnMAdTad2JDJWng9U4uBBL5mA7WI05H7oH"
    + "7c6iQCIHiRqMjNfzUAyiu9h6rOU/K+iTR0I/3Y/NSWsXHX+acc",
  "MIIBXDCCAQICCQCfjTUGLDnR9jAKBggqhkjOPQQDAzA2MQswCQYDVQQGEwJVUzETMBEGA1UECAwKQ2FsaWZvcm5pYTESMB"
    + "AGA1UEBwwJQ3VwZXJ0aW5vMB4XDTIzMDEwNDE2MjAzMloXDTMzMDEwMTE2MjAzMlowNjELMAkGA1UEBhMCVVMxEzARBgNV"
    + "BAgMCkNhbGlmb3JuaWExEjAQBgNVBAcMCUN1cGVydGlubzBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABHPvwZfoKLKaOr"
    + "X/We4qObXSna5TdWHVZ6hIRA1w0oc3QCT0Io2plyDB3/MVlk2tc4KGE8TiqW7ibQ6Zc9V64k0wCgYIKoZIzj0EAwMDSAAw"
    + "RQIhAMTHhWtbAQN0hSxIXcP4CKrDCH/gsxWpx6jTZLTeZ+FPAiB35nwk5q0zcIpefvYJ0MU/yGGHSWez0bq0pDYUO/nmDw==",
  "MIIB2jCCAYCgAwIBAgIQXCOA7XsXgUYzko4OPeKKjDAKBggqhkjOPQQDAjBNMQswCQYDVQQGEwJVUzEiMCAGA1UECgwZcm"
    + "VjZWlwdC1taWdyYXRlIHNpbXVsYXRvcjEaMBgGA1UEAwwRU2ltdWxhdGVkIFJvb3QgQ0EwHhcNMjAxMTAyMDAwMDAwWhcN"
    + "NDUxMDI3MDAwMDAwWjBNMQswCQYDVQQGEwJVUzEiMCAGA1UECgwZcmVjZWlwdC1taWdyYXRlIHNpbXVsYXRvcjEaMBgGA1"
    + "UEAwwRU2ltdWxhdGVkIFJvb3QgQ0EwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAQ5zeEOH+BvEvW4e6FkN5FFfbsv9nM+"
    + "FZGOR0RlmID/TtK+e/uCuyLXpyOE0zvF91O42AWwExKv5aZaddC9QKmto0IwQDAPBgNVHRMBAf8EBTADAQH/MA4GA1UdDw"
    + "EB/wQEAwIBBjAdBgNVHQ4EFgQUzujJAU0qI+/StIMMd9cau1xda4QwCgYIKoZIzj0EAwIDSAAwRQIgdlizvy4MUetWNSWb"
    + "InLK7B7spWYdQnLyklPurNBbEv4CIQC6BE1WJVwFByj+v+aJMgtH2OJN/UT4HNPAXVTzUgWTwA==",
].map { try! X509Certificate(base64Encoded: $0) }

/// Values without a date are validated at this instant (2024-06-01T00:00:00Z), inside every
/// test chain: the harness never reads the clock, so a run can be repeated.
let now = Timestamp(millisecondsSince1970: 1_717_200_000_000)

/// One verifier for the run, as Apple's tests configure theirs, so its chain cache is used as in
/// production: verified chains are looked up by the exact header bytes.
let verifier = try! SignedDataVerifier(
  trustedRoots: roots, bundleId: "com.example", appAppleId: 1234, environment: .sandbox,
  now: { now }, notice: { _ in })

/// The same roots for values of StoreKit testing in Xcode, whose chains are a single certificate
/// without Apple's extensions (the `xcode-*` seeds are signed by one such certificate, which is
/// one of `roots` only if a seed names it: otherwise their verdict is an untrusted chain).
let xcodeVerifier = verifier.verifying(environment: .xcode)

/// Called by libFuzzer once per input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  // 0xFF never starts a JWS (its text is ASCII): such an input is numbers to sign instead
  // (Fuzz/Harnesses/SignedNumbers.swift).
  if bytes.first == 0xFF {
    fuzzSignedNumbers(UnsafeBufferPointer(rebasing: bytes.dropFirst()))
    return 0
  }
  let header = bytes.firstIndex(of: UInt8(ascii: ".")).map { bytes[..<$0] } ?? bytes[...]
  do {
    _ = try JWSHeader.parse(segment: UnsafeBufferPointer(rebasing: header))
  } catch {
    expectDescribed(error)
  }

  let jws = String(decoding: bytes, as: UTF8.self)
  // Each kind in turn: the payload decoders differ, and so do the checks after the signature.
  do { _ = try verifier.verifyTransaction(jws) } catch { expectDescribed(error) }
  do { _ = try verifier.verifyRenewalInfo(jws) } catch { expectDescribed(error) }
  do { _ = try verifier.verifyAppTransaction(jws) } catch { expectDescribed(error) }
  do { _ = try verifier.verifyNotification(jws) } catch { expectDescribed(error) }
  do { _ = try xcodeVerifier.verifyTransaction(jws) } catch { expectDescribed(error) }
  do { _ = try xcodeVerifier.verifyAppTransaction(jws) } catch { expectDescribed(error) }
  // A notification that failed verification is still read for the ids it names.
  if let unverified = UnverifiedNotification.read(jws) {
    invariant(!unverified.kind.isEmpty, "an unverified notification without a kind")
  }

  let report = SignedValueInspector.inspect(
    jws, trustedRoots: roots, bundleId: nil, environment: nil, appAppleId: nil, now: now)
  invariant(!report.text.isEmpty, "the inspector wrote nothing")
  return 0
}

/// Every rejection names its reason.
func expectDescribed(_ failure: VerificationFailure) {
  invariant(!failure.description.isEmpty, "a failure without a description")
}
