// libFuzzer harness for the compact copies of transactions
// (Sources/AppStoreServerAPI/Compact), which `compare` and `report` read back from the store for
// every customer instead of its signed transactions.
//
// An input starting with the compact form's version byte is read as compact bytes: damaged
// bytes must be refused, never trapped on, and whatever reads must write and read back equal.
// Any other input is read as a transaction payload (the JSON inside a signed transaction): a
// transaction that decodes must come back equal through its compact copy, the guarantee compare
// relies on. Errors are verdicts; crashes, hangs and broken invariants (`invariant`) are
// findings.

import AppStoreServerAPI

/// Called by libFuzzer once per input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let buffer = UnsafeRawBufferPointer(start: data, count: size)
  if buffer.first == UInt8(CompactTransaction.formatVersion) {
    let transaction: JWSTransaction
    do {
      transaction = try CompactTransaction.decode(Array(buffer))
    } catch {
      invariant(!error.description.isEmpty, "an error without a description")
      invariant(error.offset <= size, "an error offset beyond the input")
      return 0
    }
    roundTrip(transaction)
    return 0
  }
  guard let transaction = try? JWSTransaction.decode(json: buffer) else { return 0 }
  roundTrip(transaction)
  return 0
}

/// The transaction written compactly and read back must be equal to itself.
func roundTrip(_ transaction: JWSTransaction) {
  let bytes = CompactTransaction.encode(transaction)
  do {
    let back = try CompactTransaction.decode(bytes)
    invariant(back == transaction, "a transaction read back differently from its compact copy")
  } catch {
    invariant(false, "a compact copy the writer made was refused: \(error)")
  }
}
