import AppStoreServerAPI
import Chronology
import Entitlements
import LegacyReceipts
import Testing

/// Accounts reached by order ids and app transaction ids, fields set aside at ingest, and the
/// paid-to-free evidence, as the comparator reads them (our own code only).
@Suite("AccountComparator: order ids, set-aside fields, original application versions")
struct CustomerIdTests {
  let comparator = AccountComparator(asOf: now, catalog: nil)

  func order(_ id: String, _ outcome: AccountEvidence.OrderId.Outcome, error: String? = nil)
    -> AccountEvidence.OrderId
  {
    AccountEvidence.OrderId(
      orderId: id, outcome: outcome, transactionIds: outcome == .valid ? ["100"] : [],
      lastError: error)
  }

  func seedRecord() -> AccountEvidence.LegacyRecord {
    AccountEvidence.LegacyRecord(
      version: 1, kind: "seed", source: "ids.csv:2", status: nil, environment: nil,
      capturedAt: nil, isEvaluated: false)
  }

  @Test(
    "an order id not answered yet leaves the account unresolved; one the App Store refused, unknown"
  )
  func orders() {
    var input = AccountInput(
      accountId: "a", responses: [], records: [seedRecord()], seeds: [], customers: [],
      table: nil)
    input.orders = [order("MK5TTTVWJH", .failed, error: "HTTP 500")]
    let unresolved = comparator.compare(input)
    #expect(unresolved.category == .unresolved)
    #expect(unresolved.explanation.contains("MK5TTTVWJH: HTTP 500"))
    #expect(unresolved.evidence.orderIds == input.orders)
    input.orders = [order("MK5TTTVWJH", .pending)]
    #expect(comparator.compare(input).category == .unresolved)
    input.orders = [order("MK5TTTVWJH", .invalid), order("MQ0000000X", .invalid)]
    let unknown = comparator.compare(input)
    #expect(unknown.category == .unknownToAppStore)
    #expect(unknown.explanation.contains("MK5TTTVWJH, MQ0000000X"))
    input.orders = []
    #expect(comparator.compare(input).category == .noTransactionId)
  }

  @Test("a valid order's transaction is a seed: the account is compared as ids only")
  func validOrder() {
    let running = transaction(purchase: at(-5 * day), expires: at(25 * day))
    var input = AccountInput(
      accountId: "a", responses: [], records: [seedRecord()],
      seeds: [
        AccountEvidence.SeedId(
          id: "100", source: "order_id", outcome: .found, environment: "Production",
          lastError: nil)
      ],
      customers: [customer([running], statuses: [(.active, running)])], table: nil)
    input.orders = [order("MK5TTTVWJH", .valid)]
    let result = comparator.compare(input)
    #expect(result.category == .idsOnly)
    #expect(result.explanation.contains("pro.monthly"))
  }

  @Test("fields set aside are named among the findings, and counted in no_transaction_id")
  func setAside() throws {
    let masked = AccountEvidence.SetAside(
      path: "response.pending_renewal_info[0].original_transaction_id", reason: "masked",
      detail: "masked", excerpt: "37xxxxxxxxx89")
    let wrong = AccountEvidence.SetAside(
      path: "response.receipt.in_app[0].expires_date_ms", reason: "wrong type", detail: "",
      excerpt: "{}")
    var record = response(status: 0)
    record.setAside = [masked]
    let empty = AccountInput(
      accountId: "a", responses: [], records: [record], seeds: [], customers: [], table: nil)
    let none = comparator.compare(empty)
    #expect(none.category == .noTransactionId)
    #expect(
      none.explanation.hasSuffix(
        "; 1 id(s) in the legacy data were masked or malformed and set aside"))

    record.setAside = [masked, wrong]
    let legacy = try legacyResponse(
      purchase: at(-40 * day), expires: at(-10 * day), captured: at(-9 * day))
    let lapsed = transaction(purchase: at(-40 * day), expires: at(-10 * day))
    let input = AccountInput(
      accountId: "a", responses: [legacy], records: [record], seeds: seeds(["100"]),
      customers: [customer([lapsed], statuses: [(.expired, lapsed)])], table: nil)
    let result = comparator.compare(input)
    #expect(result.category == .match)
    #expect(
      result.secondaryFindings.contains(
        "2 field(s) of the legacy records were set aside at ingest (1 masked, 1 wrong type); "
          + "the rest was read (explain lists them)"))
  }

  @Test(
    "an app transaction naming another original application version is a finding, not a category")
  func paidToFree() throws {
    var receipt = try legacyResponse(
      purchase: at(-40 * day), expires: at(-10 * day), captured: at(-9 * day))
    receipt.response.receipt?.originalApplicationVersion = "1.0"
    let lapsed = transaction(purchase: at(-40 * day), expires: at(-10 * day))
    var appStore = customer([lapsed], statuses: [(.expired, lapsed)])
    appStore.originalApplicationVersion = "1.0"
    var input = AccountInput(
      accountId: "a", responses: [receipt], records: [response(status: 0)],
      seeds: seeds(["100"]), customers: [appStore], table: nil)
    let same = comparator.compare(input)
    #expect(same.evidence.legacyOriginalApplicationVersions == ["1.0"])
    #expect(same.evidence.customers.first?.originalApplicationVersion == "1.0")
    #expect(!same.secondaryFindings.contains { $0.contains("original application version") })

    input.customers[0].originalApplicationVersion = "2.3"
    let other = comparator.compare(input)
    #expect(other.category == .match)
    #expect(
      other.secondaryFindings.contains(
        "original application version differs: the legacy receipt says 1.0, the App Store's "
          + "app transaction customer 7001 2.3 (a paid-to-free grant keyed on it would change)"))
  }
}
