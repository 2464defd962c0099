import Chronology
import Entitlements
import Foundation
import MigrationReports
import MigrationStore
import TestDirectories
import Testing

@testable import MigrationPipeline

@Suite("Run configuration: App Store choice, --fail-on, the team table, the salt, provenance")
struct RunConfigurationTests {
  static let credentials = [
    "ASC_ISSUER_ID": "3c5b1f0e-6a2d-4e8b-9f71-0d4c2b8a6e13", "ASC_KEY_ID": "SIMKEY0001",
    "ASC_PRIVATE_KEY_PATH": "/nonexistent/key.p8", "APP_BUNDLE_ID": "com.example.app",
  ]

  @Test("no credentials anywhere means the embedded simulator")
  func embeddedDefault() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let choice = try ToolConfiguration.resolve(
      file: nil, environment: ["HOME": directory.path, "APP_STORE_ENVIRONMENT": "sandbox"])
    guard case .embeddedSimulator = choice else {
      Issue.record("expected the embedded simulator, got \(choice)")
      return
    }
    #expect(!ToolConfiguration.credentialsConfigured(file: nil, environment: [:]))
    #expect(ToolConfiguration.credentialsConfigured(file: nil, environment: Self.credentials))
  }

  @Test("credentials are read and checked: an unreadable key names the variable")
  func appleChoice() throws {
    #expect {
      try ToolConfiguration.resolve(file: nil, environment: Self.credentials)
    } throws: { error in
      "\(error)".contains("ASC_PRIVATE_KEY_PATH") || "\(error)".contains("key.p8")
    }
    #expect {
      try ToolConfiguration.resolve(file: nil, environment: ["ASC_ISSUER_ID": "x"])
    } throws: { error in "\(error)".contains("ASC_KEY_ID") }
  }

  @Test("the configuration file: members map to variables; unknown members and bad JSON refused")
  func configurationFile() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let file = directory.appendingPathComponent("config.json")
    try Data(#"{"issuer_id": "abc", "root_certificates": ["a.pem", "b.pem"]}"#.utf8).write(to: file)
    #expect(ToolConfiguration.credentialsConfigured(file: file.path, environment: [:]))
    #expect {
      try ToolConfiguration.resolve(file: file.path, environment: [:])
    } throws: { error in "\(error)".contains("ASC_KEY_ID") }

    try Data(#"{"issuer": "abc"}"#.utf8).write(to: file)
    #expect {
      try ToolConfiguration.resolve(file: file.path, environment: [:])
    } throws: { error in "\(error)".contains("unknown member \"issuer\"") }
    try Data("{".utf8).write(to: file)
    #expect {
      try ToolConfiguration.resolve(file: file.path, environment: [:])
    } throws: { error in "\(error)".contains("not valid JSON") }
    #expect {
      try ToolConfiguration.resolve(
        file: directory.appendingPathComponent("missing.json").path, environment: [:])
    } throws: { error in "\(error)".contains("does not exist") }
  }

  @Test("file paths are relative to the configuration file, ~ is home, errors name the member")
  func configurationPaths() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let file = directory.appendingPathComponent("config.json")
    try Data(
      #"{"issuer_id": "abc", "key_id": "K", "bundle_id": "b", "private_key_path": "keys/missing.p8"}"#
        .utf8
    ).write(to: file)
    // From any working directory, the key is looked for beside the file, and the error names
    // the member and the file (not ASC_PRIVATE_KEY_PATH, which the user never set).
    #expect {
      try ToolConfiguration.resolve(file: file.path, environment: ["HOME": "/home/x"])
    } throws: { error in
      let text = "\(error)"
      return text.contains(directory.appendingPathComponent("keys/missing.p8").path)
        && text.contains("private_key_path in \(file.path)") && !text.contains("ASC_PRIVATE")
    }
    #expect(
      ToolConfiguration.resolving(
        "~/a.pem:b.pem:/c.pem", relativeTo: "/etc/rm/config.json", home: "/h")
        == "/h/a.pem:/etc/rm/b.pem:/c.pem")
    #expect(ToolConfiguration.expandingTilde("~/k.p8", home: "/h") == "/h/k.p8")
    #expect(ToolConfiguration.expandingTilde("a~/k.p8", home: "/h") == "a~/k.p8")
  }

  @Test("--fail-on counts the key findings of sandbox-only and shared accounts, not for new:")
  func failOnAccountLevelKeys() throws {
    let key = KeyComparison(
      key: .subscriptionGroup("1"), category: .refundMissed, cause: .logic, old: nil, new: nil,
      oldAtCapture: nil, newAtCapture: nil, explanation: "refunded")
    let evidence = AccountEvidence(capturedAt: nil, legacyRecords: [], seedIds: [], customers: [])
    let shared = AccountComparison(
      accountId: "a", category: .sharedAppleAccount, explanation: "shared", cause: nil,
      keys: [key], secondaryFindings: [], evidence: evidence)
    var other = shared
    other.category = .match
    #expect(try FailOnPolicy(parsing: "refund_missed").count(in: [shared, other]) == 1)
    #expect(try FailOnPolicy(parsing: "loses_access").count(in: [shared]) == 1)
    #expect(try FailOnPolicy(parsing: "new:refund_missed").count(in: [shared]) == 0)
    #expect(try FailOnPolicy(parsing: "table:refund_missed").count(in: [shared]) == 0)
  }

  @Test("--fail-on takes categories, impacts and any, and counts against a threshold")
  func failOn() throws {
    let policy = try FailOnPolicy(parsing: "refund_missed, gains_access", threshold: 1)
    let categories = policy.selectors.reduce(into: Set<DiscrepancyCategory>()) {
      $0.formUnion($1.categories)
    }
    #expect(categories.contains(.refundMissed))
    #expect(categories.contains(.staleRenewed))
    #expect(!categories.contains(.match))
    #expect(policy.selectors.allSatisfy { $0.side == .primary && !$0.onlyNew })
    #expect(policy.description == "refund_missed, gains_access > 1")
    let any = try FailOnPolicy(parsing: "any")
    #expect(
      any.selectors.first?.categories == Set(DiscrepancyCategory.allCases).subtracting([.match]))
    let nightly = try FailOnPolicy(parsing: "new:table:loses_access,table:refund_missed")
    #expect(nightly.selectors.map(\.side) == [.table, .table])
    #expect(nightly.selectors.map(\.onlyNew) == [true, false])
    #expect(throws: FailOnPolicy.Failure.self) { try FailOnPolicy(parsing: "refunds") }
    #expect(throws: FailOnPolicy.Failure.self) { try FailOnPolicy(parsing: " , ") }
  }

  @Test("the team table: columns by name, CRLF, quotes, aliases, and rejected rows by line")
  func teamTable() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let file = directory.appendingPathComponent("table.csv")
    let text = [
      "status,expires_at,product_id,account_id",
      "active,2025-12-01T00:00:00Z,pro.monthly,a1",
      "entitled,,\"lifetime, \"\"deluxe\"\"\",a2",
      "sleeping,,pro.monthly,a3",
      "expired,yesterday,pro.monthly,a4",
      "revoked,,,a5",
      "",
    ].joined(separator: "\r\n")
    try Data(text.utf8).write(to: file)
    let table = try CurrentEntitlementsReader.read(file.path)
    #expect(table.rowsRead == 5)
    #expect(table.rows["a1"]?.first?.status == .active)
    #expect(
      table.rows["a1"]?.first?.expiresAt == Timestamp(parsing: "2025-12-01T00:00:00Z"))
    #expect(table.rows["a2"]?.first?.productId == "lifetime, \"deluxe\"")
    #expect(table.rows["a2"]?.first?.status == .active)
    #expect(table.rejected.map(\.line) == [4, 5, 6])
    #expect(table.rejected[0].reason.contains("sleeping"))

    try Data("account,product\n".utf8).write(to: file)
    #expect(throws: CurrentEntitlementsReader.Failure.self) {
      try CurrentEntitlementsReader.read(file.path)
    }
  }

  @Test("a quoted field left open, by a line break inside it or a stray quote, rejects its line")
  func teamTableUnclosedQuotes() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let file = directory.appendingPathComponent("table.csv")
    let text = [
      "account_id,product_id,status,expires_at",
      // A field holding a line break: the first line is left open; the second, on its own, has
      // its quote in mid-field, which is data (as Python reads it), and so no status.
      "a1,\"pro", "monthly\",active,",
      "a2,pro.monthly,active,\"",  // read before as an empty expiry
      "a3,\"pro \"\"x\"\"\",active,",  // doubled quotes inside quotes: closed
      "",
    ].joined(separator: "\n")
    try Data(text.utf8).write(to: file)
    let table = try CurrentEntitlementsReader.read(file.path)
    #expect(table.rowsRead == 4)
    #expect(table.rejected.map(\.line) == [2, 3, 4])
    #expect(
      table.rejected.map { $0.reason == CSVFields.unclosedQuoteReason } == [true, false, true])
    #expect(table.rejected[1].reason.contains("status"), "\(table.rejected[1].reason)")
    #expect(table.rows["a3"]?.first?.productId == "pro \"x\"")
    #expect(table.rows.count == 1)
  }

  @Test("the team table as Excel's \"CSV UTF-8\" writes it: a byte-order mark before the header")
  func teamTableWithByteOrderMark() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let file = directory.appendingPathComponent("table.csv")
    let text = "account_id,product_id,status\r\na1,pro.monthly,active\r\n"
    try Data([0xEF, 0xBB, 0xBF] + Array(text.utf8)).write(to: file)
    let table = try CurrentEntitlementsReader.read(file.path)
    #expect(table.rowsRead == 1)
    #expect(table.rejected.isEmpty)
    #expect(table.rows["a1"]?.first?.productId == "pro.monthly")
    // Only a leading mark is one: elsewhere U+FEFF stays part of the value.
    try Data(Array("account_id,product_id,status\n\u{FEFF}a1,p,active\n".utf8)).write(to: file)
    #expect(try CurrentEntitlementsReader.read(file.path).rows["\u{FEFF}a1"]?.count == 1)
  }

  @Test("the redaction salt is made once, owner-only, and then read back unchanged")
  func redactionSalt() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let path = RedactionSaltFile.path(forStore: directory.appendingPathComponent("s.sqlite").path)
    let first = try RedactionSaltFile.loadOrCreate(at: path)
    #expect(first.utf8.count == 64)
    #expect(try RedactionSaltFile.loadOrCreate(at: path) == first)
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]
    #expect((mode as? NSNumber)?.intValue == 0o600)
    try Data("short".utf8).write(to: URL(fileURLWithPath: path))
    #expect(throws: RedactionSaltFile.Failure.self) { try RedactionSaltFile.loadOrCreate(at: path) }
  }

  @Test("a store remembers its App Store and refuses another")
  func provenance() throws {
    let store = try MigrationStore(inMemoryWithClock: { 0 })
    #expect(try StoreProvenance.recorded(in: store) == nil)
    let simulated = AppStoreSource(
      isSimulated: true, description: "simulated App Store (world A)", environment: "auto")
    try StoreProvenance.claim(store, source: simulated, identity: "simulator a", now: 1)
    try StoreProvenance.claim(store, source: simulated, identity: "simulator a", now: 2)
    #expect(try StoreProvenance.recorded(in: store) == simulated)
    let apple = AppStoreSource(isSimulated: false, description: "Apple", environment: "auto")
    #expect {
      try StoreProvenance.claim(store, source: apple, identity: "apple com.example", now: 3)
    } throws: { error in
      "\(error)".contains("simulated App Store (world A)") && "\(error)".contains("--db")
    }
  }

  @Test("the backfill summary says what became of the ids and the requests")
  func backfillSummary() {
    var summary = BackfillSummary()
    summary.groups = 3
    summary.customers = 2
    summary.historyPages = 4
    summary.statusCalls = 2
    summary.idOutcomes = ["found": 2, "covered": 1]
    summary.failedIds = 1
    let text = BackfillSummaryRenderer.text(summary, storePath: "s.sqlite")
    #expect(text.hasPrefix("Backfilled 3 group(s) of ids in 0.00 s: 2 customer(s) completed"))
    let failedLine = text.split(separator: "\n").first { $0.hasPrefix("still failed") }
    #expect(failedLine?.hasSuffix(" 1") == true)
    #expect(text.contains("The store s.sqlite holds it all"))
    #expect(
      BackfillSummaryRenderer.text(BackfillSummary(), storePath: "s").contains(
        "every one was resolved by an earlier run"))
  }
}
