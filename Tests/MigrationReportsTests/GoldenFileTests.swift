import Entitlements
import GoldenFiles
import MigrationReports
import Testing

@Suite("Golden files")
struct GoldenFileTests {
  @Test("every report file matches its golden file", arguments: Scenario.allCases)
  func reportFiles(scenario: Scenario) throws {
    let files = scenario.render()
    #expect(files.map(\.name) == ReportWriter.fileNames(for: scenario.summary))
    for file in files {
      try Golden.check(file.bytes, against: "\(scenario.rawValue)/\(file.name)")
    }
  }

  @Test(
    "explain prints an account like its golden file",
    arguments: [
      ("acct-1001", "refund_missed"), ("acct-1015", "unresolved"), ("acct-1019", "shared"),
    ])
  func explain(accountId: String, name: String) throws {
    let comparison = try #require(SampleWorld.comparisons.first { $0.accountId == accountId })
    let text = ExplainRenderer.render(comparison, asOf: SampleWorld.asOf)
    try Golden.check(Array(text.utf8), against: "explain/\(name).txt")
  }

  @Test("explain lists the lost notifications of the account's customers, pseudonymised with it")
  func explainLostNotifications() throws {
    let comparison = try #require(SampleWorld.comparisons.first { $0.accountId == "acct-1018" })
    let lost = SampleWorld.auditContext.lostNotifications.filter {
      $0.accounts.contains("acct-1018")
    }
    let text = ExplainRenderer.render(
      comparison, asOf: SampleWorld.asOf, lostNotifications: lost)
    try Golden.check(Array(text.utf8), against: "explain/shared-lost-notifications.txt")
    #expect(text.contains("DID_FAIL_TO_RENEW/GRACE_PERIOD"))
    let pseudonymizer = try Pseudonymizer(salt: SampleWorld.salt)
    let redacted = ExplainRenderer.render(
      comparison, asOf: SampleWorld.asOf, pseudonymizer: pseudonymizer, lostNotifications: lost)
    #expect(!redacted.contains("acct-1019") && !redacted.contains("7000000000000018"))
    #expect(redacted.contains(pseudonymizer.pseudonym(forCustomer: "7000000000000018")))
  }

  @Test("explain pseudonymises like the report does")
  func explainRedacted() throws {
    let comparison = try #require(SampleWorld.comparisons.first { $0.accountId == "acct-1019" })
    let pseudonymizer = try Pseudonymizer(salt: SampleWorld.salt)
    let text = ExplainRenderer.render(
      comparison, asOf: SampleWorld.asOf, pseudonymizer: pseudonymizer)
    try Golden.check(Array(text.utf8), against: "explain/shared-redacted.txt")
    #expect(!text.contains("acct-1019") && !text.contains("acct-1018"))
    #expect(text.contains(pseudonymizer.pseudonym(forAccount: "acct-1018")))
  }

  @Test("the same input renders to the same bytes, whatever its order", arguments: [1, 7, 42])
  func deterministic(seed: UInt64) {
    var generator = SplitMix64(seed: seed)
    let shuffled = SampleWorld.comparisons.shuffled(using: &generator)
    let first = ReportWriter.render(
      summary: SampleWorld.simulatedSummary, comparisons: SampleWorld.comparisons)
    let second = ReportWriter.render(summary: SampleWorld.simulatedSummary, comparisons: shuffled)
    #expect(first == second)
  }
}

/// A small seeded generator, so that shuffles are the same on every run.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

@Suite("Terminal summary")
struct TerminalSummaryTests {
  @Test("migrate's closing summary prints like its golden file, simulated and plain")
  func simulated() throws {
    let text = RunSummaryTerminalRenderer.render(
      summary: SampleWorld.simulatedSummary, comparisons: SampleWorld.comparisons,
      reportDirectory: "Reports/\(SampleWorld.simulatedSummary.runId)")
    try Golden.check(Array(text.utf8), against: "terminal/simulated.txt")
    #expect(text.hasPrefix("SIMULATED App Store"))
  }

  @Test("control characters in data are shown as escapes, never sent to the terminal")
  func hostileText() {
    var summary = SampleWorld.simulatedSummary
    summary.appStore.description = "evil\u{1B}[2Jstore"
    let text = RunSummaryTerminalRenderer.render(summary: summary, comparisons: [])
    #expect(!text.contains("\u{1B}"))
  }
}
