// libFuzzer harness for the raw receipt readers (Sources/LegacyReceipts/RawReceipts): app
// receipts (PKCS#7 signedData, DER or BER) and iOS 6 transaction receipts (old-style property
// lists), as `receipt-migrate ingest` and `receipt-migrate receipt` read them.
//
// The input is tried as the decoded receipt bytes, as the base64 text a record stores, and as a
// property list on its own (the inner `purchase-info` list is base64 inside the outer one, where
// mutations rarely reach it). A receipt that reads is checked against the simulator's root, as
// ingest does with `--receipt-root`, and rendered the ways the CLI renders it. Errors are
// verdicts; crashes, hangs and broken invariants (`invariant`) are findings.

import CryptoSupport
import JSON

@testable import LegacyReceipts

/// The root the sample receipts in Legacy/sample are signed with (Legacy/sample/signing/root.pem,
/// a test root that protects nothing), so that seeds from there reach a valid signature.
let simulatorRoot = """
  -----BEGIN CERTIFICATE-----
  MIIB2jCCAYCgAwIBAgIQXCOA7XsXgUYzko4OPeKKjDAKBggqhkjOPQQDAjBNMQsw
  CQYDVQQGEwJVUzEiMCAGA1UECgwZcmVjZWlwdC1taWdyYXRlIHNpbXVsYXRvcjEa
  MBgGA1UEAwwRU2ltdWxhdGVkIFJvb3QgQ0EwHhcNMjAxMTAyMDAwMDAwWhcNNDUx
  MDI3MDAwMDAwWjBNMQswCQYDVQQGEwJVUzEiMCAGA1UECgwZcmVjZWlwdC1taWdy
  YXRlIHNpbXVsYXRvcjEaMBgGA1UEAwwRU2ltdWxhdGVkIFJvb3QgQ0EwWTATBgcq
  hkjOPQIBBggqhkjOPQMBBwNCAAQ5zeEOH+BvEvW4e6FkN5FFfbsv9nM+FZGOR0Rl
  mID/TtK+e/uCuyLXpyOE0zvF91O42AWwExKv5aZaddC9QKmto0IwQDAPBgNVHRMB
  Af8EBTADAQH/MA4GA1UdDwEB/wQEAwIBBjAdBgNVHQ4EFgQUzujJAU0qI+/StIMM
  d9cau1xda4QwCgYIKoZIzj0EAwIDSAAwRQIgdlizvy4MUetWNSWbInLK7B7spWYd
  QnLyklPurNBbEv4CIQC6BE1WJVwFByj+v+aJMgtH2OJN/UT4HNPAXVTzUgWTwA==
  -----END CERTIFICATE-----
  """

/// One reader for the whole run: building the trust store is the slow part.
let reader = RawReceiptReader(
  verifier: try! CertificateChainVerifier(
    trustedRoots: [X509Certificate(pemRepresentation: simulatorRoot)]))

/// Called by libFuzzer once per input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  readDecoded(bytes)
  readBase64(bytes)
  parsePropertyList(bytes)
  return 0
}

/// The bytes as a decoded receipt: read, signature checked, rendered.
func readDecoded(_ bytes: [UInt8]) {
  let outcome = Result { () throws(RawReceiptError) in try reader.read(bytes) }
  switch outcome {
  case .success(let receipt):
    inspect(receipt)
  case .failure(let error):
    invariant(!error.description.isEmpty, "an error without a description")
  }
  guard bytes.first == 0x30 else { return }
  // The one-pass fast path and the general reader must reach the same verdict.
  let fast = Result { () throws(RawReceiptError) in try AppReceiptReader.read(bytes) }
  let general = Result { () throws(RawReceiptError) in
    try AppReceiptReader.readWithoutFastPath(bytes)
  }
  invariant(fast == general, "fast path \(fast) differs from the general reader \(general)")
}

/// The bytes as the base64 text a legacy record stores.
func readBase64(_ bytes: [UInt8]) {
  let text = String(decoding: bytes, as: UTF8.self)
  do {
    inspect(try reader.read(base64: text))
  } catch {
    invariant(!error.description.isEmpty, "an error without a description")
  }
}

/// The bytes as an old-style property list, the inner `purchase-info` one included.
func parsePropertyList(_ bytes: [UInt8]) {
  do {
    _ = try OldStylePropertyListParser.parseDictionary(bytes[...])
  } catch {
    invariant(!error.description.isEmpty, "an error without a description")
  }
}

/// What ingest and `receipt-migrate receipt` take from a receipt that reads.
func inspect(_ receipt: RawReceipt) {
  let seeds = receipt.seeds
  invariant(
    Set(seeds.originalTransactionIds).count == seeds.originalTransactionIds.count,
    "original transaction ids repeat")
  for id in seeds.originalTransactionIds + seeds.transactionIds {
    invariant(
      !id.isEmpty && id.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }, "id \(id) is not digits")
  }
  _ = RawReceiptSummary(receipt)
  let json = receipt.jsonText(style: .compact)
  invariant((try? JSONValue(parsing: json.utf8)) != nil, "jsonText is not JSON: \(json)")
}
