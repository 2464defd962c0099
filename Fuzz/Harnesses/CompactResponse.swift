// libFuzzer harness for the compact copies of decoded responses
// (Sources/LegacyReceipts/Compact), which `compare` and `report` read back from the store for
// every account instead of the verbatim verifyReceipt bytes.
//
// An input starting with the compact form's version byte is read as compact bytes: damaged
// bytes must be refused, never trapped on, and whatever reads must write and read back equal.
// Any other input is read as a verifyReceipt document: a response that decodes must come back
// equal through its compact copy, the guarantee compare relies on. Errors are verdicts;
// crashes, hangs and broken invariants (`invariant`) are findings.

import LegacyReceipts

/// Called by libFuzzer once per input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let buffer = UnsafeRawBufferPointer(start: data, count: size)
  if buffer.first == UInt8(CompactResponse.formatVersion) {
    let response: VerifyReceiptResponse
    do {
      response = try CompactResponse.decode(Array(buffer))
    } catch {
      invariant(!error.description.isEmpty, "an error without a description")
      invariant(error.offset <= size, "an error offset beyond the input")
      return 0
    }
    roundTrip(response)
    return 0
  }
  guard let document = try? VerifyReceiptDecoder.decode(buffer) else { return 0 }
  roundTrip(document.response)
  return 0
}

/// The response written compactly and read back must be equal to itself.
func roundTrip(_ response: VerifyReceiptResponse) {
  let bytes = CompactResponse.encode(response)
  do {
    let back = try CompactResponse.decode(bytes)
    invariant(back == response, "a response read back differently from its compact copy")
  } catch {
    invariant(false, "a compact copy the writer made was refused: \(error)")
  }
}
