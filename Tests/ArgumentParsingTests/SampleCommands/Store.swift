import ArgumentParsing

/// A command that only groups nested subcommands, with a default.
struct Store: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Inspect and maintain the migration database.",
    discussion: "Every store command opens the database read-write; stop other runs first.",
    subcommands: [Check.self, Vacuum.self],
    defaultSubcommand: Check.self
  )
}
