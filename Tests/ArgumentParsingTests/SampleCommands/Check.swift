import ArgumentParsing

/// A nested subcommand that is its parent's default, with an optional argument and a
/// counted flag.
struct Check: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Check the database's integrity."
  )

  @OptionGroup var store: StoreOptions

  @Argument(help: "Check only this account.")
  var accountID: String?

  @Flag(name: .short, help: "More detail; repeat for even more.")
  var verbosity: Int

  mutating func run() throws {}
}
