import Chronology
import Entitlements
import Foundation
import Testing

@testable import MigrationReports

/// What every report leads with: "what to do first", ordered by money at stake, the same lines
/// in the same order in the terminal, summary.md and report.html; audits titled as audits and
/// leading with what changed (each side labelled) and how current the data is; the threshold
/// saying what it counted. Checks of this project's code against hand-made runs (our own code
/// only).
@Suite("First screen: what to do first")
struct FirstScreenTests {
  static let day: Int64 = 86_400_000

  /// An account whose one key differs, priced per month in a currency.
  static func account(
    _ id: String, _ category: DiscrepancyCategory, _ cause: DifferenceCause?,
    monthly price: Int64, currency: String = "USD", table: DiscrepancyCategory? = nil
  ) -> AccountComparison {
    var view = EntitlementView(key: .subscriptionGroup("1"), status: .active)
    view.kind = .autoRenewable
    view.productId = "p"
    view.price = price
    view.currency = currency
    view.purchaseDate = Timestamp(millisecondsSince1970: 0)
    // 30.4375 days: the price is exactly the monthly amount.
    view.expiresDate = Timestamp(millisecondsSince1970: 2_629_800_000)
    let key = KeyComparison(
      key: .subscriptionGroup("1"), category: category, cause: cause, old: view, new: view,
      oldAtCapture: nil, newAtCapture: nil, table: nil, tableCategory: table, explanation: "x")
    return AccountComparison(
      accountId: id, category: category, explanation: "x", cause: cause, keys: [key],
      secondaryFindings: [], tableCategory: table, suspectedFlaws: [],
      evidence: AccountEvidence(capturedAt: nil, legacyRecords: [], seedIds: [], customers: []))
  }

  static func actions(_ comparisons: [AccountComparison], lost: Int = 0) -> [ReportAction] {
    ActionList.of(
      ReportStatistics(comparisons: comparisons, topExplanationCount: 0),
      summary: SampleWorld.simulatedSummary, lostNotifications: lost)
  }

  @Test(
    "lines that need doing come first, by money per month in the main currency; old receipts last")
  func orderedByMoney() {
    let lines = Self.actions(
      [
        Self.account("a", .refundMissed, .logic, monthly: 5_000),
        Self.account("b", .refundMissed, .logic, monthly: 5_000),
        Self.account("c", .staleRenewed, .freshness, monthly: 900_000),
        Self.account("d", .graceMissed, .logic, monthly: 20_000, table: .graceMissed),
        Self.account("e", .expiryDrift, .logic, monthly: 1_000),
        // Much more in another currency, which is never converted: USD is the main one.
        Self.account("f", .upgradeMisread, .logic, monthly: 15_000, currency: "EUR"),
      ], lost: 2)
    #expect(
      lines.map(\.kind) == [
        .accounts(.logicGainsAccess), .accounts(.tableWrong), .accounts(.logicLosesAccess),
        .accounts(.logicChangesTerms), .lostNotifications, .accounts(.freshness),
      ])
    #expect(
      lines[0].sentence
        == "1 account gains access because of a logic difference (USD 20.00/month): fix the logic")
    #expect(
      lines[2].sentence
        == "2 accounts lose access because of a logic difference (USD 10.00/month): fix the logic")
    #expect(lines[3].count == 2 && lines[3].moneyText == "EUR 15.00/month; USD 1.00/month")
    #expect(
      lines[4].command
        == "receipt-migrate notifications replay --to URL --run 20240615T120000Z-7f3a")
    #expect(lines.last?.needsAction == false)
    #expect(lines.last?.sentence.hasSuffix(": no action") == true)
  }

  @Test("a table category that needs attention is not counted as a wrong table")
  func tableWrongOnlyWhenItDecidesOtherwise() {
    let lines = Self.actions([
      Self.account("a", .match, nil, monthly: 1_000, table: .noTransactionId),
      Self.account("b", .match, nil, monthly: 1_000, table: .refundMissed),
    ])
    #expect(lines.map(\.kind) == [.accounts(.tableWrong)])
    #expect(lines[0].count == 1)
  }

  /// The numbered lines of a text, in order: `1. …`, `2. …`.
  static func numbered(_ lines: [Substring]) -> [String] {
    lines.compactMap { line in
      let trimmed = line.drop { $0 == " " }
      guard let dot = trimmed.firstIndex(of: "."), Int(trimmed[..<dot]) != nil else { return nil }
      return String(trimmed[trimmed.index(after: dot)...]).trimmingCharacters(in: .whitespaces)
    }
  }

  @Test(
    "the terminal, summary.md and report.html list the same lines in the same order",
    arguments: [Scenario.simulated, .audit])
  func sameOrderEverywhere(scenario: Scenario) throws {
    let expected = Self.actions(scenario.comparisons, lost: scenario.summary.lostNotifications)
    #expect(expected.count >= 4)
    let terminal = RunSummaryTerminalRenderer.render(
      summary: scenario.summary, comparisons: scenario.comparisons,
      changes: scenario.context.changes)
    let block = terminal.components(separatedBy: "What to do first:\n")[1]
      .components(separatedBy: "\n\n")[0]
    #expect(Self.numbered(block.split(separator: "\n")) == expected.map(\.sentence))

    let files = scenario.render()
    let markdown = String(
      decoding: try #require(files.first { $0.name == "summary.md" }).bytes, as: UTF8.self)
    let section = markdown.components(separatedBy: "## What to do first\n\n")[1]
      .components(separatedBy: "\n\n")[0]
    let subjects = Self.numbered(section.split(separator: "\n")).map {
      String($0.dropFirst(2).prefix { $0 != "*" })
    }
    #expect(subjects == expected.map(\.subject))

    let html = String(
      decoding: try #require(files.first { $0.name == "report.html" }).bytes, as: UTF8.self)
    let list = html.components(separatedBy: "<ol class=\"actions\">")[1]
      .components(separatedBy: "</ol>")[0]
    let strong = list.components(separatedBy: "<strong>").dropFirst().map {
      String($0.prefix { $0 != "<" })
    }
    #expect(strong == expected.map(\.subject))
    let targets = list.components(separatedBy: "<a href=\"").dropFirst().map {
      String($0.prefix { $0 != "\"" })
    }
    #expect(targets == expected.map { HTMLText.escape($0.target.fragment) })
  }

  @Test(
    "an audit is titled as one and leads with what changed, each side labelled, and the data's freshness"
  )
  func auditLead() throws {
    let scenario = Scenario.audit
    #expect(scenario.summary.isAudit)
    #expect(!Scenario.simulated.summary.isAudit)
    let terminal = RunSummaryTerminalRenderer.render(
      summary: scenario.summary, comparisons: scenario.comparisons,
      changes: scenario.context.changes)
    let lines = terminal.split(separator: "\n").map(String.init)
    #expect(lines[1].hasPrefix("Audit run 20240616T030000Z-a0d1:"))
    // The threshold says what it counted, and the lead counts the same side by name.
    #expect(
      lines[3]
        == "Threshold crossed: --fail-on new:table:any: 1 account counted (new table findings); "
        + "0 tolerated; exiting with code 1.")
    #expect(lines[4] == "Compared with run 20240615T030000Z-9c2e (as of 2024-06-15T03:00:00Z)")
    #expect(
      lines[5]
        == "  New findings: 3 accounts — 2 primary (the old logic against the App Store), 1 in your table"
    )
    #expect(
      lines[7]
        == "  App Store data current through 2024-06-16T02:55:00Z (Production); no customer left due"
    )
    #expect(
      terminal.range(of: "Compared with run")!.lowerBound
        < terminal.range(of: "What to do first:")!.lowerBound)

    let files = scenario.render()
    let markdown = String(
      decoding: try #require(files.first { $0.name == "summary.md" }).bytes, as: UTF8.self)
    #expect(markdown.hasPrefix("# Audit `20240616T030000Z-a0d1`"))
    #expect(
      markdown.contains(
        "- New findings: 3 accounts — 2 primary (the old logic against the App Store), 1 in your table"
      ))
    #expect(markdown.contains("1 account counted (new table findings); 0 tolerated"))
    let html = String(
      decoding: try #require(files.first { $0.name == "report.html" }).bytes, as: UTF8.self)
    #expect(html.contains("<title>Nightly audit 20240616T030000Z-a0d1</title>"))
    let lead = try #require(html.range(of: "<section id=\"lead\""))
    let cards = try #require(html.range(of: "<section class=\"cards\" id=\"headline\""))
    let actions = try #require(html.range(of: "<section id=\"actions\""))
    #expect(lead.lowerBound < cards.lowerBound && cards.lowerBound < actions.lowerBound)
    #expect(html.contains("<a href=\"#change=either:new_finding\">New findings: 3 accounts"))
  }
}
