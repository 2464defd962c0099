import Testing

@testable import ArgumentParsing

@Suite("Help and version")
struct HelpTests {
  static let rootHelp = """
    OVERVIEW: Move a server from verifyReceipt to the App Store Server API.

    USAGE: receipt-migrate <subcommand>

    OPTIONS:
      --version               Show the version.
      -h, --help              Show help information.

    SUBCOMMANDS:
      ingest                  Read stored verifyReceipt responses into the migration
                              database.
      store                   Inspect and maintain the migration database.

      See 'receipt-migrate help <subcommand>' for detailed help.
    """

  static let ingestHelp = """
    OVERVIEW: Read stored verifyReceipt responses into the migration database.

    USAGE: receipt-migrate ingest <paths> ... [--db <database-path>]
           [--concurrency <concurrency>] [--format <format>] [--root <root> ...]
           [--limit <limit>] [--since <since>] [--resume|--no-resume] [--verbose]

    ARGUMENTS:
      <paths>                 Files of stored verifyReceipt responses.

    OPTIONS:
      --db <database-path>    The migration database. (default: migration.sqlite)
      -j, --concurrency <concurrency>
                              Files read at the same time. (default: 4)
      --format <format>       The format of the input files. (values: ndjson, csv;
                              default: ndjson)
      --root <root>           Only read accounts under this root; repeat for several
                              roots.
      --limit <limit>         Stop after this many accounts.
      --since <since>         Skip responses older than this day (YYYY-MM-DD).
      --resume/--no-resume    Skip files that were already read. (default: --resume)
      -v, --verbose           Print every file as it is read.
      --version               Show the version.
      -h, --help              Show help information.
    """

  static let storeHelp = """
    OVERVIEW: Inspect and maintain the migration database.

    Every store command opens the database read-write; stop other runs first.

    USAGE: receipt-migrate store <subcommand>

    OPTIONS:
      --version               Show the version.
      -h, --help              Show help information.

    SUBCOMMANDS:
      check (default)         Check the database's integrity.
      vacuum                  Reclaim the space of deleted rows.

      See 'receipt-migrate help store <subcommand>' for detailed help.
    """

  static let vacuumHelp = """
    OVERVIEW: Reclaim the space of deleted rows.

    USAGE: receipt-migrate store vacuum [--db <database-path>] --timeout <timeout>

    OPTIONS:
      --db <database-path>    The migration database. (default: migration.sqlite)
      --timeout <timeout>     Give up after this many seconds.
      --version               Show the version.
      -h, --help              Show help information.
    """

  static let checkHelp = """
    OVERVIEW: Check the database's integrity.

    USAGE: receipt-migrate store check [--db <database-path>] [<account-id>]
           [-v ...]

    ARGUMENTS:
      <account-id>            Check only this account.

    OPTIONS:
      --db <database-path>    The migration database. (default: migration.sqlite)
      -v                      More detail; repeat for even more.
      --version               Show the version.
      -h, --help              Show help information.
    """

  static let exportHelp = """
    OVERVIEW: Export accounts.

    USAGE: export --enable-sandbox|--disable-sandbox [--output <output>]
           [--batch-size <count>] [<accounts> ...]

    ARGUMENTS:
      <accounts>              The accounts to export.

    OPTIONS:
      --enable-sandbox/--disable-sandbox
                              Include sandbox purchases.
      -o, --output <output>   Where to write; - is standard output. (default: -)
      --batch-size <count>    Rows per file. (default: 1000)
      -h, --help              Show help information.
    """

  @Test(
    "Each command's help, in swift-argument-parser's layout",
    arguments: [
      (SampleTool.self as any ParsableCommand.Type, rootHelp),
      (Ingest.self, ingestHelp),
      (Store.self, storeHelp),
      (Vacuum.self, vacuumHelp),
      (Check.self, checkHelp),
    ])
  func helpText(command: any ParsableCommand.Type, expected: String) {
    #expect(SampleTool.helpMessage(for: command, columns: 80) == expected)
  }

  @Test("A root command without subcommands or version")
  func standaloneHelp() {
    #expect(Export.helpMessage(for: Export.self, columns: 80) == Self.exportHelp)
  }

  @Test(
    "--help, -h and 'help <subcommand>' print help and exit 0",
    arguments: [
      ([String](), rootHelp),
      (["--help"], rootHelp),
      (["-h"], rootHelp),
      (["help"], rootHelp),
      (["ingest", "--help"], ingestHelp),
      (["ingest", "-h"], ingestHelp),
      (["ingest", "--bogus", "-j", "many", "--help"], ingestHelp),
      (["help", "ingest"], ingestHelp),
      (["store", "--help"], storeHelp),
      (["help", "store"], storeHelp),
      (["store", "vacuum", "-h"], vacuumHelp),
      (["help", "store", "vacuum"], vacuumHelp),
      (["store", "check", "--help"], checkHelp),
      (["ingest", "--", "--help"], nil),
    ])
  func helpRequest(arguments: [String], expected: String?) async throws {
    guard let expected else {
      // After '--', '--help' is a path like any other.
      let command = try #require(try SampleTool.parseAsRoot(arguments) as? Ingest)
      #expect(command.paths == ["--help"])
      return
    }
    let report = try #require(await SampleTool.execute(arguments, columns: 80))
    #expect(report.text == expected)
    #expect(report.exitCode == .success)
    #expect(report.destination == .standardOutput)
  }

  @Test(
    "--version prints the version on every command and exits 0",
    arguments: [
      ["--version"], ["ingest", "--version"], ["store", "vacuum", "--version"],
    ])
  func version(arguments: [String]) throws {
    let error = try #require(SampleTool.parsingError(arguments))
    #expect(SampleTool.message(for: error) == "1.2.3")
    #expect(SampleTool.fullMessage(for: error) == "1.2.3")
    #expect(SampleTool.exitCode(for: error) == .success)
  }

  @Test("Help wraps to a narrow terminal")
  func narrowHelp() {
    #expect(
      SampleTool.helpMessage(for: Vacuum.self, columns: 50) == """
        OVERVIEW: Reclaim the space of deleted rows.

        USAGE: receipt-migrate store vacuum
               [--db <database-path>] --timeout <timeout>

        OPTIONS:
          --db <database-path>    The migration database.
                                  (default:
                                  migration.sqlite)
          --timeout <timeout>     Give up after this many
                                  seconds.
          --version               Show the version.
          -h, --help              Show help information.
        """)
  }
}
