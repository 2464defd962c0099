import ArgumentParsing

/// Declares two properties answering to `--db`, a mistake the parser reports as a bug.
struct DuplicateNames: ParsableCommand {
  @Option(name: .customLong("db")) var databasePath: String?
  @Flag(name: .customLong("db")) var debug = false
}
