import Testing

@testable import ArgumentParsing

@Suite("Usage errors")
struct UsageErrorTests {
  @Test(
    "Each mistake has its message and exit code 2",
    arguments: [
      (["ingest"], "Missing expected argument '<paths> ...'"),
      (["ingest", "a", "--bogus"], "Unknown option '--bogus'"),
      (["ingest", "a", "-x"], "Unknown option '-x'"),
      (["ingest", "a", "-vx"], "Unknown option '-x'"),
      (["ingest", "a", "--db"], "Missing value for '--db <database-path>'"),
      (["ingest", "a", "--db", "--verbose"], "Missing value for '--db <database-path>'"),
      (["ingest", "a", "-jv", "3"], "Missing value for '-j <concurrency>'"),
      (
        ["ingest", "a", "--concurrency", "many"],
        "The value 'many' is invalid for '--concurrency <concurrency>'"
      ),
      (["ingest", "a", "-j", "2.5"], "The value '2.5' is invalid for '-j <concurrency>'"),
      (
        ["ingest", "a", "--format", "x"],
        "The value 'x' is invalid for '--format <format>'. Please provide one of 'ndjson', 'csv'."
      ),
      (
        ["ingest", "a", "--since", "soon"],
        "The value 'soon' is invalid for '--since <since>': 'soon' is not a day as YYYY-MM-DD"
      ),
      (
        ["ingest", "a", "--verbose=yes"],
        "The option '--verbose' does not take any value, but 'yes' was specified."
      ),
      (["ingest", "a", "-j", "0"], "--concurrency must be at least 1, not 0"),
      (["ingest", "a", "--db="], "--db needs a path; pass --db migration.sqlite"),
      (["store", "check", "a", "b"], "Unexpected argument 'b'"),
      (["store", "check", "a", "b", "c"], "2 unexpected arguments: 'b', 'c'"),
      (["store", "vacuum"], "Missing expected argument '--timeout <timeout>'"),
      (["bogus"], "Unknown subcommand 'bogus'. Please provide one of 'ingest', 'store'."),
      (
        ["help", "store", "bogus"],
        "Unknown subcommand 'bogus'. Please provide one of 'check', 'vacuum'."
      ),
      (["ingest", "a", "--version=2"], "Unknown option '--version'"),
      (
        ["ingest", "a", "--concurency", "2"],
        "Unknown option '--concurency'. Did you mean '--concurrency'?"
      ),
      (["ingets", "a"], "Unknown subcommand 'ingets'. Did you mean 'ingest'?"),
      (["help", "store", "chek"], "Unknown subcommand 'chek'. Did you mean 'check'?"),
      (["help", "ingest", "extra"], "'ingest' has no subcommand 'extra'"),
    ])
  func usageError(arguments: [String], message: String) throws {
    let error = try #require(SampleTool.parsingError(arguments))
    #expect(SampleTool.message(for: error) == message)
    #expect(SampleTool.exitCode(for: error) == .validationFailure)
    #expect(SampleTool.exitCode(for: error).rawValue == 2)
  }

  @Test(
    "A required inverted flag names both spellings; a command without a version has no --version",
    arguments: [
      ([String](), "Missing one of: '--enable-sandbox', '--disable-sandbox'"),
      (["--version"], "Unknown option '--version'"),
      (["--enable-sandbox", "x"], "The value 'x' is invalid for '<accounts>'"),
      (["--enable-sandbox", "--batch-size"], "Missing value for '--batch-size <count>'"),
    ])
  func standaloneUsageError(arguments: [String], message: String) throws {
    let error = try #require(Export.parsingError(arguments))
    #expect(Export.message(for: error) == message)
    #expect(Export.exitCode(for: error) == .validationFailure)
  }

  @Test("The printed error has the message, the command's usage and where to find help")
  func fullMessage() throws {
    let error = try #require(SampleTool.parsingError(["store", "vacuum"]))
    #expect(
      SampleTool.fullMessage(for: error, columns: 80) == """
        Error: Missing expected argument '--timeout <timeout>'
        Usage: receipt-migrate store vacuum [--db <database-path>] --timeout <timeout>
          See 'receipt-migrate store vacuum --help' for more information.
        """)
  }

  @Test("A long usage line wraps after 'Usage: '")
  func wrappedUsage() throws {
    let error = try #require(SampleTool.parsingError(["ingest", "a", "--format", "xml"]))
    #expect(
      SampleTool.fullMessage(for: error, columns: 80) == """
        Error: The value 'xml' is invalid for '--format <format>'. Please provide one of 'ndjson', 'csv'.
        Usage: receipt-migrate ingest <paths> ... [--db <database-path>]
               [--concurrency <concurrency>] [--format <format>] [--root <root> ...]
               [--limit <limit>] [--since <since>] [--resume|--no-resume] [--verbose]
          See 'receipt-migrate ingest --help' for more information.
        """)
  }

  @Test("edit distance counts insertions, deletions and substitutions; unrelated names get none")
  func suggestions() {
    #expect(NameSuggestion.editDistance("migrate", "migrat") == 1)
    #expect(NameSuggestion.editDistance("kitten", "sitting") == 3)
    #expect(NameSuggestion.editDistance("", "abc") == 3)
  }
}
