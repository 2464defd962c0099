// libFuzzer harness for the verifyReceipt response decoder (Sources/LegacyReceipts/Decoding),
// which `receipt-migrate ingest` runs over every stored response.
//
// A document that decodes is taken one step further, the way ingest and the reports take it:
// the merged transactions, every date written in ISO 8601, and the reference entitlement logic
// at a fixed instant. Errors are verdicts; crashes, hangs and broken invariants (`invariant`) are
// findings.

import Chronology
import LegacyReceipts

/// A fixed instant for the entitlement logic: 2024-06-01T00:00:00Z, inside the sample's span.
let evaluationInstant = Timestamp(millisecondsSince1970: 1_717_200_000_000)

/// Called by libFuzzer once per input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let buffer = UnsafeRawBufferPointer(start: data, count: size)
  let document: VerifyReceiptDecoder.Document
  do {
    document = try VerifyReceiptDecoder.decode(buffer)
  } catch {
    invariant(!"\(error)".isEmpty, "an error without a description")
    return 0
  }
  use(document.response)
  // Damage is kept to its field: each set-aside field names where and why, and no id the
  // response still names can be sent to Apple unless it is one.
  for field in document.setAside {
    invariant(!field.path.isEmpty && !field.detail.isEmpty, "a set-aside field without a reason")
  }
  for id in document.response.originalTransactionIds {
    invariant(
      (1...20).contains(id.utf8.count) && id.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 },
      "an id that cannot be Apple's survived: \(id)")
  }
  return 0
}

/// What ingest and the reports read from a decoded response.
func use(_ response: VerifyReceiptResponse) {
  let merged = response.mergedTransactions
  _ = response.originalTransactionIds
  var dates: [Timestamp?] = [
    response.receipt?.receiptCreationDate, response.receipt?.requestDate,
    response.receipt?.originalPurchaseDate, response.receipt?.expirationDate,
    response.receipt?.preorderDate,
  ]
  for transaction in merged + response.latestReceiptInfo + (response.receipt?.inApp ?? []) {
    dates += [
      transaction.purchaseDate, transaction.originalPurchaseDate, transaction.expiresDate,
      transaction.cancellationDate,
    ]
  }
  dates += response.pendingRenewalInfo.map(\.gracePeriodExpiresDate)
  for case let date? in dates {
    // Any 64-bit count of milliseconds can arrive in a `*_ms` field; reports and logs write
    // dates in ISO 8601. (LegacyDateFormatter is left out: it writes the simulator's own
    // dates, never read ones.)
    _ = date.iso8601
  }
  _ = OldEntitlementLogic().evaluate(response, at: evaluationInstant)
}
