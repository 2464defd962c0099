import Entitlements
import MigrationReports
import Testing

/// `explain` shows what ingest set aside, the order ids with their answers, and the original
/// application versions on both sides; redacted, the ids that name a customer are pseudonyms.
/// (Our own code only.)
@Suite("explain: set-aside fields, order ids, application versions")
struct ExplainEvidenceTests {
  static func comparison() throws -> AccountComparison {
    var comparison = try #require(
      SampleWorld.comparisons.first { $0.accountId == "acct-1001" })
    comparison.evidence.legacyRecords[0].setAside = [
      AccountEvidence.SetAside(
        path: "response.pending_renewal_info[0].original_transaction_id", reason: "masked",
        detail: "original_transaction_id is masked ('37xxxxxxxxx89')", excerpt: "37xxxxxxxxx89")
    ]
    comparison.evidence.orderIds = [
      AccountEvidence.OrderId(
        orderId: "MK5TTTVWJH", outcome: .valid, transactionIds: ["1000000000000001"],
        lastError: nil),
      AccountEvidence.OrderId(
        orderId: "MQ0000000X", outcome: .invalid, transactionIds: [], lastError: nil),
    ]
    comparison.evidence.legacyOriginalApplicationVersions = ["1.0"]
    comparison.evidence.customers[0].originalApplicationVersion = "2.3"
    comparison.evidence.seedIds.append(
      AccountEvidence.SeedId(
        id: comparison.evidence.customers[0].key, source: "app_transaction_id", outcome: .found,
        environment: "Production", lastError: nil))
    return comparison
  }

  @Test("each section is there")
  func sections() throws {
    let text = ExplainRenderer.render(try Self.comparison(), asOf: SampleWorld.asOf)
    #expect(text.contains("Set aside at ingest (the rest of each record was read)"))
    #expect(text.contains("response.pending_renewal_info[0].original_transaction_id"))
    #expect(text.contains("37xxxxxxxxx89"))
    #expect(text.contains("partial: 1 set aside"))
    #expect(text.contains("Order ids (Look Up Order ID)"))
    #expect(text.contains("MQ0000000X"))
    #expect(text.contains("invalid"))
    #expect(text.contains("Legacy receipt (original_application_version): 1.0"))
    #expect(text.contains("(originalApplicationVersion): 2.3"))
  }

  @Test("redacted, an app transaction id seed is the customer's pseudonym")
  func redacted() throws {
    let comparison = try Self.comparison()
    let key = comparison.evidence.customers[0].key
    let pseudonymizer = try Pseudonymizer(salt: SampleWorld.salt)
    let text = ExplainRenderer.render(
      comparison, asOf: SampleWorld.asOf, pseudonymizer: pseudonymizer)
    #expect(!text.contains(key))
    #expect(text.contains(pseudonymizer.pseudonym(forCustomer: key)))
  }
}
