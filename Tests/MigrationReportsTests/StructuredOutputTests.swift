import Entitlements
import JSON
import LegacyReceipts
import Testing

@testable import MigrationReports

@Suite("NDJSON and run.json")
struct StructuredOutputTests {
  private static let files = ReportWriter.render(
    summary: SampleWorld.simulatedSummary, comparisons: SampleWorld.comparisons)

  private static func file(_ name: String) throws -> ReportFile {
    try #require(files.first { $0.name == name })
  }

  private static func lines() throws -> [JSONValue] {
    try file("discrepancies.ndjson").text.split(separator: "\n").map {
      try JSONValue(parsing: Array($0.utf8))
    }
  }

  @Test("one JSON object per account, each with schema_version 1 and every account id verbatim")
  func ndjsonLines() throws {
    let text = try Self.file("discrepancies.ndjson").text
    #expect(text.hasSuffix("\n"))
    let lines = try Self.lines()
    #expect(lines.count == SampleWorld.comparisons.count)
    for line in lines {
      #expect(line["schema_version"]?.int64Value == 1)
    }
    #expect(Set(lines.compactMap { $0["account_id"]?.stringValue }) == Set(SampleWorld.accountIds))
  }

  @Test("a line carries the full comparison: keys with every view, flaws, and the evidence")
  func ndjsonContent() throws {
    let line = try #require(try Self.lines().first { $0["account_id"]?.stringValue == "acct-1001" })
    #expect(line["category"]?.stringValue == "refund_missed")
    #expect(line["impact"]?.stringValue == "loses_access")
    #expect(line["cause"]?.stringValue == "freshness")
    #expect(line["table_category"]?.stringValue == "refund_missed")
    guard case .array(let keys)? = line["keys"], let key = keys.first else {
      Issue.record("no keys array")
      return
    }
    #expect(key["key"]?.stringValue == "group:20000001")
    #expect(key["new"]?["status"]?.stringValue == "revoked")
    #expect(key["new"]?["revocation_type"]?.stringValue == "REFUND_FULL")
    #expect(key["new"]?["revocation_date"]?.stringValue == "2024-06-02T10:00:00Z")
    #expect(key["old"]?["entitled"]?.boolValue == true)
    #expect(key["old_at_capture"]?["status"]?.stringValue == "active")
    #expect(key["table"]?["status"]?.stringValue == "active")
    #expect(key["old"]?["original_transaction_id"]?.stringValue == "1000000000000001")
    guard case .array(let flaws)? = line["suspected_flaws"] else {
      Issue.record("no suspected_flaws array")
      return
    }
    #expect(flaws.first?["flaw"]?.stringValue == "ignores_cancellation")
    #expect(line["evidence"]?["captured_at"]?.stringValue == "2024-05-20T08:30:00Z")
    guard case .array(let seeds)? = line["evidence"]?["seed_ids"] else {
      Issue.record("no seed_ids array")
      return
    }
    #expect(seeds.first?["outcome"]?.stringValue == "found")
    #expect(seeds.first?["unverified"]?.boolValue == false)

    let absent = try #require(
      try Self.lines().first { $0["account_id"]?.stringValue == "acct-1009" })
    guard case .array(let absentKeys)? = absent["keys"] else {
      Issue.record("no keys array")
      return
    }
    #expect(absentKeys.first?["old"] == .null)
  }

  @Test("run.json has schema_version 1, and its counts add up to the accounts")
  func runJSON() throws {
    let run = try JSONValue(parsing: try Self.file("run.json").bytes)
    #expect(run["schema_version"]?.int64Value == 1)
    #expect(run["run_id"]?.stringValue == SampleWorld.simulatedSummary.runId)
    #expect(run["app_store"]?["simulated"]?.boolValue == true)
    #expect(run["duration_ms"]?.int64Value == 205_500)
    let accounts = Int64(SampleWorld.comparisons.count)
    #expect(run["counts"]?["accounts"]?.int64Value == accounts)
    for group in ["by_category", "by_impact", "by_cause"] {
      guard case .object(let members)? = run["counts"]?[group] else {
        Issue.record("counts.\(group) is not an object")
        continue
      }
      #expect(members.compactMap(\.value.int64Value).reduce(0, +) == accounts, "counts.\(group)")
    }
    guard case .object(let categories)? = run["counts"]?["by_category"] else { return }
    #expect(categories.map(\.key) == DiscrepancyCategory.allCases.map(\.rawValue))
    #expect(run["counts"]?["by_category"]?["stale_expired"]?.int64Value == 2)
    #expect(run["counts"]?["by_cause"]?["undetermined"]?.int64Value == 2)
    #expect(run["counts"]?["transitions"]?["none"]?["active"]?.int64Value == 3)
    #expect(run["counts"]?["expiry_differences"]?["at_most_minus_30_days"]?.int64Value == 2)
    #expect(run["team_table"]?["compared"]?.boolValue == true)
    #expect(run["team_table"]?["suspected_flaws"]?["no_grace_period"]?.int64Value == 1)
    #expect(run["requests"]?["total"]?["requests"]?.int64Value == 82)
    #expect(run["requests"]?["total"]?["rate_limited"]?.int64Value == 3)
    #expect(
      run["requests"]?["endpoints"]?["get_transaction_history"]?["errors_by_code"]?["4040010"]?
        .int64Value == 2)
    #expect(run["durations_ms"]?["backfill"]?.int64Value == 201_250)
    #expect(run["fail_on"]?["crossed"]?.boolValue == true)
    #expect(run["redaction"]?["redacted"]?.boolValue == false)
    #expect(run["html"]?["accounts_with_evidence"]?.int64Value == accounts - 4)
  }

  @Test("accounts are listed by impact, then precedence, then id, in every file")
  func order() throws {
    let ids = try Self.lines().compactMap { $0["account_id"]?.stringValue }
    let categories = try Self.lines().compactMap { $0["category"]?.stringValue }
      .compactMap(DiscrepancyCategory.init(rawValue:))
    #expect(ids.first == "acct-1001")
    #expect(categories.last == .match)
    for (earlier, later) in zip(categories, categories.dropFirst()) {
      #expect(earlier == later || DisplayOrder.precedes(earlier, later))
    }
    // Impacts in the documented order.
    let impacts = categories.map(\.impact)
    let ranks = impacts.compactMap { DiscrepancyCategory.Impact.allCases.firstIndex(of: $0) }
    #expect(ranks == ranks.sorted())
    let csvIds = try CSVParser.parse(try Self.file("discrepancies.csv").text).dropFirst().map(\.[0])
    #expect(csvIds.map { $0.hasPrefix("'=") ? String($0.dropFirst()) : $0 } == ids)
  }
}
