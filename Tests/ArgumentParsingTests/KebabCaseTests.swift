import Testing

@testable import ArgumentParsing

@Suite("Names derived from identifiers")
struct KebabCaseTests {
  @Test(
    "Camel case becomes kebab case",
    arguments: [
      ("verbose", "verbose"),
      ("maxRetries", "max-retries"),
      ("maxHTTPRetries", "max-http-retries"),
      ("ascKeyID", "asc-key-id"),
      ("URLSession", "url-session"),
      ("sha256Digest", "sha256-digest"),
      ("ReceiptMigrate", "receipt-migrate"),
      ("dryRun", "dry-run"),
    ])
  func kebabCase(identifier: String, expected: String) {
    #expect(identifier.convertedToKebabCase() == expected)
  }
}
