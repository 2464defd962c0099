import Entitlements
import Testing

@testable import MigrationReports

@Suite("CSV")
struct CSVTests {
  @Test(
    "fields are quoted as RFC 4180 says, and formulas are defused",
    arguments: [
      ("plain", "plain"),
      ("", ""),
      ("a,b", "\"a,b\""),
      ("say \"hi\"", "\"say \"\"hi\"\"\""),
      ("two\nlines", "\"two\nlines\""),
      ("crlf\r\nhere", "\"crlf\r\nhere\""),
      (" padded", "\" padded\""),
      ("=1+1", "'=1+1"),
      ("+31 6", "'+31 6"),
      ("-2", "'-2"),
      ("@SUM(A1)", "'@SUM(A1)"),
      ("=A1,\"x\"", "\"'=A1,\"\"x\"\"\""),
      ("Zoë-東京-🙂", "Zoë-東京-🙂"),
    ])
  func quoting(value: String, encoded: String) {
    #expect(CSVField.encode(value) == encoded)
  }

  @Test("the report's CSV parses back: a header, then one record per account, every field intact")
  func parsesBack() throws {
    let content = ReportContent(
      summary: SampleWorld.simulatedSummary, comparisons: SampleWorld.comparisons,
      options: ReportOptions())
    let text = DiscrepanciesCSVRenderer(content: content).render()
    let records = try CSVParser.parse(text)
    #expect(records.first == DiscrepanciesCSVRenderer.columns)
    #expect(records.count == SampleWorld.comparisons.count + 1)
    for record in records {
      #expect(record.count == DiscrepanciesCSVRenderer.columns.count)
    }
    let ids = records.dropFirst().map { $0[0] }
    // Every id comes back verbatim, except that the formula gained its defusing apostrophe.
    let expected = SampleWorld.accountIds.map { $0 == SampleWorld.formulaId ? "'" + $0 : $0 }
    #expect(Set(ids) == Set(expected))
    #expect(ids.count == expected.count)
    #expect(ids.contains(SampleWorld.scriptId))
    let refund = try #require(records.first { $0[0] == "acct-1001" })
    #expect(refund[1] == "refund_missed" && refund[2] == "loses_access" && refund[3] == "freshness")
    #expect(refund[5] == "refund_missed" && refund[6] == "ignores_cancellation")
    #expect(refund[7] == "group:20000001 refund_missed: active -> revoked (table active)")
    #expect(refund[10] == "receipts.ndjson:12")
    #expect(refund[11] == "1000000000000001 found Production")
    let rawReceipt = try #require(records.first { $0[0] == "acct-1020" })
    #expect(rawReceipt[11] == "1000000000000020 found Production unverified")
    let shared = try #require(records.first { $0[0] == "acct-1018" })
    #expect(shared[13] == "acct-1019")
  }

  @Test("records end with CRLF, and nothing else does outside quotes")
  func lineEndings() throws {
    let content = ReportContent(
      summary: SampleWorld.simulatedSummary, comparisons: SampleWorld.comparisons,
      options: ReportOptions())
    let text = DiscrepanciesCSVRenderer(content: content).render()
    #expect(text.hasSuffix("\r\n"))
    // The parser rejects a bare line feed outside quotes, so parsing is the check.
    #expect(throws: Never.self) { try CSVParser.parse(text) }
  }
}
