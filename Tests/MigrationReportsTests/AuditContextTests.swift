import Chronology
import Entitlements
import Testing

@testable import MigrationReports

/// The nightly audit's lists in the report: the failed deliveries still pending, the accounts
/// only in the team table, the App Store customers no account claims, and what `explain` says
/// of an account's lost and pending notifications — escaped where the data is hostile,
/// pseudonymised (tokens hidden) under `--redact`, and saying how many a long list leaves out.
///
/// Evidence: our own code only (the renderers' output read back as text).
@Suite("Report: the audit's lists")
struct AuditContextTests {
  static let hostileAccount = "<script>alert(1)</script>"
  static let token = "5a5b3c1d-0e8f-5a2b-9c3d-4e5f6a7b8c9d"

  static func notification(_ uuid: String, delivery: String, reportedBy run: String? = nil)
    -> LostNotification
  {
    var notification = LostNotification(
      uuid: uuid, environment: "Production", type: "DID_RENEW", subtype: nil,
      signedDate: Timestamp(millisecondsSince1970: 1_718_400_000_000),
      originalTransactionId: "2000000000000001", customerKey: "cust-<b>1</b>",
      accounts: [hostileAccount], firstAttempt: Timestamp(millisecondsSince1970: 1_718_400_001_000),
      lastAttempt: Timestamp(millisecondsSince1970: 1_718_403_601_000), reason: "TIMED_OUT",
      signedPayload: "eyJ.payload.sig", delivery: delivery, failedAttempts: 2)
    notification.reportedRunId = run
    return notification
  }

  static func unclaimed(_ index: Int) -> UnclaimedCustomer {
    UnclaimedCustomer(
      environment: "Production", customerKey: "appTx-<i>\(index)</i>",
      originalTransactionId: "30000000000\(index)", appAccountToken: token, notifications: 2,
      lastType: "SUBSCRIBED/INITIAL_BUY",
      lastSigned: Timestamp(millisecondsSince1970: 1_718_400_000_000))
  }

  static func context(unclaimed count: Int = 1) -> RunContext {
    var context = RunContext(
      lostNotifications: [notification("lost-uuid", delivery: "lost", reportedBy: "run-1")],
      pendingNotifications: [notification("pending-uuid", delivery: "pending")])
    context.tableOnlyAccounts = [hostileAccount, "only-in-table-2"]
    context.unclaimedCustomers = (0..<count).map(unclaimed)
    return context
  }

  static func summary(unclaimed count: Int = 1) -> RunSummary {
    var summary = SampleWorld.productionSummary
    summary.lostNotifications = 1
    summary.pendingNotifications = 1
    summary.tableOnlyAccounts = 2
    summary.tableAccountsAdopted = 3
    summary.unclaimedCustomers = count
    return summary
  }

  static func file(_ name: String, in files: [ReportFile]) throws -> String {
    try #require(files.first { $0.name == name }).text
  }

  @Test("report.html and summary.md list them, with the data escaped")
  func listed() throws {
    let files = ReportWriter.render(
      summary: Self.summary(), comparisons: SampleWorld.comparisons, context: Self.context())
    let html = try Self.file("report.html", in: files)
    #expect(html.contains("<section id=\"coverage\">"))
    #expect(html.contains("<section id=\"pending-notifications\">"))
    #expect(html.contains(HTMLText.escape(Self.hostileAccount)))
    #expect(!html.contains(Self.hostileAccount), "a table-only account id ran as markup")
    #expect(html.contains(HTMLText.escape("appTx-<i>0</i>")))
    #expect(html.contains(Self.token))
    #expect(html.contains(HTMLText.escape("cust-<b>1</b>")))
    #expect(!html.contains("are listed here"), "nothing is left out of a short list")

    let markdown = try Self.file("summary.md", in: files)
    #expect(markdown.contains("## Pending notifications"))
    #expect(markdown.contains("| Unclaimed customer |"))
    #expect(markdown.contains("Accounts only in your table, backfilled from its customer ids: 3"))
    #expect(markdown.contains("Accounts only in your table, not compared: 2"))
    #expect(markdown.contains("App Store customers no account claims: 1"))

    let headline = RunSummaryTerminalRenderer.render(
      summary: Self.summary(), comparisons: SampleWorld.comparisons)
    #expect(headline.contains("App Store customers no account claims: 1"))
    #expect(headline.contains("Accounts only in your table, not compared: 2"))
    #expect(headline.contains("Pending notifications: 1"))
  }

  @Test("under --redact: accounts and customers pseudonymised, appAccountTokens hidden")
  func redacted() throws {
    let pseudonymizer = try Pseudonymizer(salt: SampleWorld.salt)
    let files = ReportWriter.render(
      summary: Self.summary(), comparisons: SampleWorld.comparisons, context: Self.context(),
      options: ReportOptions(pseudonymizer: pseudonymizer))
    for file in files {
      #expect(!file.text.contains(Self.token), "\(file.name) shows an appAccountToken")
      #expect(!file.text.contains("appTx-"), "\(file.name) names an unclaimed customer")
      #expect(!file.text.contains("only-in-table-2"), "\(file.name) names a table-only account")
    }
    let html = try Self.file("report.html", in: files)
    #expect(html.contains(pseudonymizer.pseudonym(forAccount: "only-in-table-2")))
    #expect(html.contains(pseudonymizer.pseudonym(forCustomer: "appTx-<i>0</i>")))
    #expect(html.contains("<code>redacted</code>"))
  }

  @Test("a list longer than the page shows says how many it left out")
  func leftOut() throws {
    let count = HTMLReportRenderer.auditRowLimit + 1
    let files = ReportWriter.render(
      summary: Self.summary(unclaimed: count), comparisons: SampleWorld.comparisons,
      context: Self.context(unclaimed: count))
    let html = try Self.file("report.html", in: files)
    #expect(html.contains("The first 2,000 of 2,001 unclaimed customers are listed here."))
    let markdown = try Self.file("summary.md", in: files)
    #expect(markdown.contains("… and 1,981 more (report.html)"))
  }

  @Test(
    "explain names the account's lost notifications with the run that reported them, and the pending ones as not to replay yet"
  )
  func explain() throws {
    let comparison = try #require(SampleWorld.comparisons.first)
    let deliveries = [
      Self.notification("lost-uuid", delivery: "lost", reportedBy: "run-1"),
      Self.notification("pending-uuid", delivery: "pending"),
    ]
    let text = ExplainRenderer.render(comparison, lostNotifications: deliveries)
    let lines = text.split(separator: "\n")
    #expect(lines.contains("Notifications your server did not receive"))
    let lost = lines.last { $0.contains("lost-uuid") } ?? ""
    #expect(lost.contains("lost (reported by run run-1, 2 failed)"))
    let pending = lines.first { $0.contains("pending-uuid") } ?? ""
    #expect(pending.contains("pending (Apple may still retry it: do not replay yet, 2 failed)"))
    #expect(!ExplainRenderer.render(comparison).contains("did not receive"))

    let pseudonymizer = try Pseudonymizer(salt: SampleWorld.salt)
    let redacted = ExplainRenderer.render(
      comparison, pseudonymizer: pseudonymizer, lostNotifications: deliveries)
    #expect(!redacted.contains("cust-<b>1</b>"))
    #expect(redacted.contains(pseudonymizer.pseudonym(forCustomer: "cust-<b>1</b>")))
  }
}
