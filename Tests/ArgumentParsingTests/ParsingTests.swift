import ArgumentParsing
import Testing

@Suite("Parsing arguments into commands")
struct ParsingTests {
  private func ingest(_ arguments: [String]) throws -> Ingest {
    try #require(try SampleTool.parseAsRoot(["ingest"] + arguments) as? Ingest)
  }

  @Test("Absent options take their defaults")
  func defaults() throws {
    let command = try ingest(["receipts.ndjson"])
    #expect(command.paths == ["receipts.ndjson"])
    #expect(command.store.databasePath == "migration.sqlite")
    #expect(command.concurrency == 4)
    #expect(command.format == .ndjson)
    #expect(command.root == [])
    #expect(command.limit == nil)
    #expect(command.since == nil)
    #expect(command.resume)
    #expect(!command.verbose)
  }

  @Test(
    "Every spelling of an option with a value",
    arguments: [
      ["a", "--concurrency", "7"],
      ["a", "--concurrency=7"],
      ["a", "-j", "7"],
      ["-j", "7", "a"],
      ["a", "-vj", "7"],
      ["a", "-j", "2", "--concurrency", "7"],
    ])
  func optionSpellings(arguments: [String]) throws {
    let command = try ingest(arguments)
    #expect(command.concurrency == 7)
    #expect(command.paths == ["a"])
  }

  @Test("An attached value may contain '=' and be empty for a string")
  func attachedValues() throws {
    #expect(try ingest(["a", "--root=x=y"]).root == ["x=y"])
    #expect(try ingest(["a", "--root="]).root == [""])
  }

  @Test("'--' makes every later argument positional")
  func terminator() throws {
    let command = try ingest(["--verbose", "--", "--no-resume", "-j"])
    #expect(command.paths == ["--no-resume", "-j"])
    #expect(command.verbose)
    #expect(command.resume)
  }

  @Test("'-' and negative numbers are values, not options")
  func dashValues() throws {
    let command = try ingest(["-", "--limit", "-5"])
    #expect(command.paths == ["-"])
    #expect(command.limit == -5)
  }

  @Test("Repeated options collect in order; a repeated single option keeps the last value")
  func repeatedOptions() throws {
    let command = try ingest(["a", "b", "--root", "A", "--root", "B", "-j", "2", "-j", "3"])
    #expect(command.paths == ["a", "b"])
    #expect(command.root == ["A", "B"])
    #expect(command.concurrency == 3)
  }

  @Test("Enumerations are read by raw value")
  func enumerations() throws {
    #expect(try ingest(["a", "--format", "csv"]).format == .csv)
  }

  @Test("Int64 values keep every digit")
  func largeIntegers() throws {
    #expect(try ingest(["a", "--limit", "9007199254740993"]).limit == 9_007_199_254_740_993)
  }

  @Test("A transform reads custom values")
  func transform() throws {
    #expect(try ingest(["a", "--since", "2024-01-02"]).since == Day(year: 2024, month: 1, day: 2))
  }

  @Test(
    "An inverted flag takes the last spelling given",
    arguments: [
      ([String](), true),
      (["--no-resume"], false),
      (["--no-resume", "--resume"], true),
      (["--resume", "--no-resume"], false),
    ])
  func invertedFlag(arguments: [String], expected: Bool) throws {
    #expect(try ingest(["a"] + arguments).resume == expected)
  }

  @Test(
    "A counted flag counts separate and grouped occurrences",
    arguments: [
      ([String](), 0),
      (["-v"], 1),
      (["-vv"], 2),
      (["-v", "acct", "-vv"], 3),
    ])
  func countedFlag(arguments: [String], expected: Int) throws {
    let command = try #require(
      try SampleTool.parseAsRoot(["store", "check"] + arguments) as? Check)
    #expect(command.verbosity == expected)
  }

  @Test("An option group's options are parsed with the command's own")
  func optionGroup() throws {
    #expect(try ingest(["a", "--db", "x.sqlite"]).store.databasePath == "x.sqlite")
    let check = try #require(
      try SampleTool.parseAsRoot(["store", "check", "--db=y.sqlite"]) as? Check)
    #expect(check.store.databasePath == "y.sqlite")
  }

  @Test("Nested subcommands and a default subcommand")
  func subcommands() throws {
    let implicit = try #require(try SampleTool.parseAsRoot(["store"]) as? Check)
    #expect(implicit.accountID == nil)
    let implicitWithArgument = try #require(try SampleTool.parseAsRoot(["store", "42"]) as? Check)
    #expect(implicitWithArgument.accountID == "42")
    let explicit = try #require(try SampleTool.parseAsRoot(["store", "check", "42"]) as? Check)
    #expect(explicit.accountID == "42")
    let vacuum = try #require(
      try SampleTool.parseAsRoot(["store", "vacuum", "--timeout", "2.5"]) as? Vacuum)
    #expect(vacuum.timeout == 2.5)
    #expect(!vacuum.dryRun)
  }

  @Test("Hidden options are still accepted")
  func hiddenOption() throws {
    let vacuum = try #require(
      try SampleTool.parseAsRoot(["store", "vacuum", "--timeout", "1", "--dry-run"]) as? Vacuum)
    #expect(vacuum.dryRun)
  }

  @Test("Custom names, enable/disable inversions and positional arrays with defaults")
  func standaloneCommand() throws {
    let plain = try #require(try Export.parseAsRoot(["--enable-sandbox"]) as? Export)
    #expect(plain.sandbox)
    #expect(plain.output == "-")
    #expect(plain.batchSize == 1000)
    #expect(plain.accounts == [])
    let full = try #require(
      try Export.parseAsRoot(["--disable-sandbox", "-o", "out.csv", "--batch-size", "5", "7", "-8"])
        as? Export)
    #expect(!full.sandbox)
    #expect(full.output == "out.csv")
    #expect(full.batchSize == 5)
    #expect(full.accounts == [7, -8])
  }
}

@Suite("Declarations without attribute arguments")
struct BareDeclarationTests {
  @Test("Required, optional and repeating arguments of every kind")
  func bareDeclarations() throws {
    let command = try #require(
      try BareDeclarations.parseAsRoot([
        "1", "--name", "n", "--tag", "a", "2", "x", "--tag", "b", "--verbose", "--verbose", "y",
      ]) as? BareDeclarations)
    #expect(command.name == "n")
    #expect(command.nickname == nil)
    #expect(command.tag == ["a", "b"])
    #expect(!command.force)
    #expect(command.verbose == 2)
    #expect(command.first == 1)
    #expect(command.second == 2)
    #expect(command.rest == ["x", "y"])
  }

  @Test(
    "Arrays without a default need at least one value",
    arguments: [
      (["1", "--name", "n", "2", "x"], "Missing expected argument '--tag <tag> ...'"),
      (["1", "--name", "n", "--tag", "a"], "Missing expected argument '<rest> ...'"),
      (["--tag", "a", "1", "2", "x"], "Missing expected argument '--name <name>'"),
    ])
  func requiredArrays(arguments: [String], message: String) throws {
    let error = try #require(BareDeclarations.parsingError(arguments))
    #expect(BareDeclarations.message(for: error) == message)
  }
}
