import Foundation
import MigrationPipeline
import Testing

@Suite("Token mappings: the team's file and derived tokens")
struct AccountTokenMappingTests {
  @Test("bad rows are quarantined with file, line and reason; the rest is read")
  func quarantine() throws {
    let text = """
      app_account_token,account_id
      11111111-1111-4111-8111-111111111111,a1
      22222222-2222-4222-8222-222222222222,a2

      not-a-uuid,a3
      11111111-1111-4111-8111-111111111111,a4
      33333333-3333-4333-8333-333333333333,a1
      44444444-4444-4444-8444-444444444444,
      55555555-5555-4555-8555-555555555555
      "66666666-6666-4666-8666-666666666666","a,6"\r
      """
    let file = try AccountTokenFileReader.parse(text, path: "tokens.csv")
    #expect(file.rowsRead == 8)
    #expect(
      file.mapping.tokenByAccount == [
        "a1": "11111111-1111-4111-8111-111111111111",
        "a2": "22222222-2222-4222-8222-222222222222",
        "a,6": "66666666-6666-4666-8666-666666666666",
      ])
    #expect(
      file.quarantined.map(\.description) == [
        "tokens.csv:5: app_account_token \"not-a-uuid\" is not a UUID (8-4-4-4-12 hexadecimal digits)",
        "tokens.csv:6: the token 11111111-1111-4111-8111-111111111111 already belongs to account a1",
        "tokens.csv:7: account a1 already has the token 11111111-1111-4111-8111-111111111111 on an earlier line",
        "tokens.csv:8: account_id is empty",
        "tokens.csv:9: the row has 1 field(s); expected account_id,app_account_token",
      ])
  }

  @Test("a byte-order mark before the header is not part of its first column")
  func byteOrderMark() throws {
    let file = try AccountTokenFileReader.parse(
      "\u{FEFF}account_id,app_account_token\r\na1,11111111-1111-4111-8111-111111111111\r\n",
      path: "t.csv")
    #expect(file.quarantined.isEmpty)
    #expect(file.mapping.tokenByAccount == ["a1": "11111111-1111-4111-8111-111111111111"])
  }

  @Test("rows end at LF, CRLF and CR only, as in the entitlement table; other breaks stay put")
  func lineBreaks() throws {
    let file = try AccountTokenFileReader.parse(
      "account_id,app_account_token\ra1,11111111-1111-4111-8111-111111111111\r\n"
        + "a2,22222222-2222-4222-8222-\u{2028}222222222222\n", path: "t.csv")
    #expect(file.mapping.tokenByAccount == ["a1": "11111111-1111-4111-8111-111111111111"])
    #expect(file.rowsRead == 2)
    #expect(file.quarantined.map(\.line) == [3])
  }

  @Test("a quoted field left open rejects its line: an account id never swallows the token")
  func unclosedQuote() throws {
    let file = try AccountTokenFileReader.parse(
      "account_id,app_account_token\n\"a1,11111111-1111-4111-8111-111111111111\n"
        + "a2,22222222-2222-4222-8222-222222222222\n", path: "t.csv")
    #expect(file.mapping.tokenByAccount == ["a2": "22222222-2222-4222-8222-222222222222"])
    #expect(file.quarantined.map(\.line) == [2])
    #expect(file.quarantined.first?.reason.hasPrefix("a quoted field is not closed") == true)
  }

  @Test("a file without the header is refused as a whole")
  func header() {
    #expect(throws: AccountTokenFileReader.Failure.self) {
      try AccountTokenFileReader.parse("a1,11111111-1111-4111-8111-111111111111\n", path: "t.csv")
    }
  }

  @Test("derived tokens are Python's uuid.uuid5 of the account id, and name their account")
  func derived() throws {
    let source = try AccountTokenSource.deriving(namespace: "6F3C1A52-9B0E-4D7A-8F21-5C4E3B2A1D09")
    let file = try source.load(accounts: ["acct-0001", "42"])
    #expect(file.mapping.token(forAccount: "acct-0001") == "017ebffa-af59-5ba3-ba84-c7890fb509a5")
    #expect(file.mapping.token(forAccount: "42") == "2762640e-d5c1-55ab-bfc8-07a358840969")
    #expect(file.mapping.account(owning: "2762640e-d5c1-55ab-bfc8-07a358840969") == "42")
    #expect(throws: AccountTokenFileReader.Failure.self) {
      try AccountTokenSource.deriving(namespace: "acme")
    }
  }
}
