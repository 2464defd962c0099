import Entitlements
import Testing

@testable import MigrationReports

@Suite("Redaction")
struct RedactionTests {
  private static let pseudonymizer = try! Pseudonymizer(salt: SampleWorld.salt)

  private static func render(salt: [UInt8] = SampleWorld.salt) throws -> [ReportFile] {
    ReportWriter.render(
      summary: SampleWorld.productionSummary, comparisons: SampleWorld.comparisons,
      options: ReportOptions(pseudonymizer: try Pseudonymizer(salt: salt)))
  }

  @Test("no report file names a real account id or customer key")
  func noRealIds() throws {
    let customerKeys = Set(SampleWorld.comparisons.flatMap(\.evidence.customers).map(\.key))
    for file in try Self.render() {
      let text = file.text
      for id in SampleWorld.accountIds {
        // Each id is checked as written and as each file escapes it.
        for form in [id, HTMLText.escape(id), CSVField.encode(id), MarkdownText.escape(id)] {
          #expect(!text.contains(form), "\(file.name) names \(id.debugDescription)")
        }
      }
      for key in customerKeys {
        #expect(!text.contains(key), "\(file.name) names the customer \(key)")
      }
    }
  }

  @Test("every account appears under its pseudonym")
  func pseudonymsPresent() throws {
    let files = try Self.render()
    let ndjson = try #require(files.first { $0.name == "discrepancies.ndjson" }).text
    for id in SampleWorld.accountIds {
      #expect(ndjson.contains("\"account_id\":\"\(Self.pseudonymizer.pseudonym(forAccount: id))\""))
    }
  }

  @Test("the same salt gives the same pseudonyms in every run; another salt gives others")
  func stability() throws {
    let again = try Pseudonymizer(salt: SampleWorld.salt)
    let other = try Pseudonymizer(salt: Array("another-salt-0123456789abcdef".utf8))
    for id in SampleWorld.accountIds {
      #expect(again.pseudonym(forAccount: id) == Self.pseudonymizer.pseudonym(forAccount: id))
      #expect(other.pseudonym(forAccount: id) != Self.pseudonymizer.pseudonym(forAccount: id))
    }
    #expect(try Self.render() == Self.render())
  }

  @Test("pseudonyms have a fixed shape, keep accounts and customers apart, and do not collide")
  func shape() {
    let account = Self.pseudonymizer.pseudonym(forAccount: "42")
    let customer = Self.pseudonymizer.pseudonym(forCustomer: "42")
    #expect(account.hasPrefix("acct_") && account.count == 21)
    #expect(customer.hasPrefix("cust_") && customer.count == 21)
    #expect(account.dropFirst(5) != customer.dropFirst(5))
    let pseudonyms = Set((0..<10_000).map { Self.pseudonymizer.pseudonym(forAccount: String($0)) })
    #expect(pseudonyms.count == 10_000)
  }

  @Test("an account named in another's evidence gets the pseudonym of its own row")
  func crossReferences() throws {
    let content = ReportContent(
      summary: SampleWorld.productionSummary, comparisons: SampleWorld.comparisons,
      options: ReportOptions(pseudonymizer: Self.pseudonymizer))
    let first = Self.pseudonymizer.pseudonym(forAccount: "acct-1018")
    let second = Self.pseudonymizer.pseudonym(forAccount: "acct-1019")
    let row = try #require(content.accounts.first { $0.accountId == first })
    #expect(row.evidence.customers.first?.otherAccounts == [second])
    #expect(row.explanation.hasSuffix("also belongs to \(second)"))
    #expect(row.explanation.contains(Self.pseudonymizer.pseudonym(forCustomer: "7000000000000018")))
    let other = try #require(content.accounts.first { $0.accountId == second })
    #expect(other.evidence.legacyRecords.first?.source == "responses/\(second).json")
  }

  @Test(
    "free text loses whole-word ids only",
    arguments: [
      ("shared with account 12.", "shared with account X."),
      ("expires 2024-12-01", "expires 2024-12-01"),
      ("acct-123 is not 12", "acct-123 is not X"),
      ("12", "X"),
      ("(12)", "(X)"),
      ("responses/12.json", "responses/X.json"),
      ("acct-12 and 12_b", "acct-12 and 12_b"),
      ("at 12:00", "at X:00"),
    ])
  func scrubbing(text: String, scrubbed: String) {
    #expect(TextScrubber(replacements: [("12", "X")]).scrub(text) == scrubbed)
  }

  @Test("longer ids are replaced before ids they contain")
  func longestFirst() {
    let scrubber = TextScrubber(replacements: [("acct 1", "A"), ("acct 1 2", "B")])
    #expect(scrubber.scrub("see acct 1 2 and acct 1") == "see B and A")
  }

  @Test("two ids equal only up to normalization each keep their own pseudonym, in text too")
  func equivalentAccountIds() {
    let composed = "jos\u{E9}@example.com"
    let decomposed = "jose\u{301}@example.com"
    let comparison = AccountComparison(
      accountId: composed, category: .sharedAppleAccount,
      explanation: "\(composed): the Apple Account 7000 also belongs to \(decomposed)",
      cause: nil, keys: [], secondaryFindings: [],
      evidence: AccountEvidence(
        capturedAt: nil, legacyRecords: [], seedIds: [],
        customers: [.init(key: "7000", environment: "Production", otherAccounts: [decomposed])]))
    let redacted = Self.pseudonymizer.redacting(comparison)
    let mine = Self.pseudonymizer.pseudonym(forAccount: composed)
    let theirs = Self.pseudonymizer.pseudonym(forAccount: decomposed)
    #expect(mine != theirs)
    #expect(redacted.accountId == mine)
    #expect(redacted.evidence.customers.first?.otherAccounts == [theirs])
    let customer = Self.pseudonymizer.pseudonym(forCustomer: "7000")
    #expect(
      redacted.explanation == "\(mine): the Apple Account \(customer) also belongs to \(theirs)")
    let scrubber = TextScrubber(replacements: [(composed, "A"), (decomposed, "B")])
    #expect(scrubber.scrub("\(decomposed) \(composed)") == "B A")
    // A spelling no account has is still hidden, and a mere prefix of an id is not the id.
    #expect(TextScrubber(replacements: [(composed, "A")]).scrub("by \(decomposed)") == "by A")
    #expect(scrubber.scrub("jos\u{E9}") == "jos\u{E9}")
  }

  @Test("a short salt is refused, and the salt never shows in descriptions")
  func salt() throws {
    #expect(throws: ReportError.self) { try Pseudonymizer(salt: Array("short".utf8)) }
    do {
      _ = try Pseudonymizer(salt: [1, 2, 3])
      Issue.record("a 3-byte salt was accepted")
    } catch {
      #expect(error.kind == .saltTooShort)
      #expect(error.message.contains("16"))
    }
    let description =
      String(describing: Self.pseudonymizer) + String(reflecting: Self.pseudonymizer)
    var dumped = ""
    dump(Self.pseudonymizer, to: &dumped)
    for text in [description, dumped] {
      #expect(!text.contains("golden-salt"))
      #expect(!text.contains("103, 111, 108"))  // "gol" as bytes
    }
  }

  @Test("run.json and the page say that ids are pseudonymised")
  func saysSo() throws {
    let files = try Self.render()
    #expect(files[0].text.contains("<strong>Pseudonymised.</strong>"))
    #expect(files.first { $0.name == "run.json" }?.text.contains("\"redacted\": true") == true)
  }
}
