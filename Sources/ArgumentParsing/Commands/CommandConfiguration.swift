/// What a command is called, what it says about itself and which subcommands it has.
public struct CommandConfiguration: Sendable {
  /// The name users type; `nil` derives it from the type name in kebab-case.
  public var commandName: String?
  /// A one-sentence summary, shown after `OVERVIEW:` and in the parent's subcommand list.
  public var abstract: String
  /// A usage line that replaces the generated one; `nil` generates it from the arguments.
  public var usage: String?
  /// Longer help shown below the overview.
  public var discussion: String
  /// The text `--version` prints; empty means the command has no `--version` flag.
  public var version: String
  /// The commands that can follow this one on the command line.
  public var subcommands: [any ParsableCommand.Type]
  /// The subcommand that runs when the arguments name none.
  public var defaultSubcommand: (any ParsableCommand.Type)?

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - commandName: The name users type; `nil` derives it from the type name in kebab-case.
  ///   - abstract: A one-sentence summary of the command.
  ///   - usage: A usage line that replaces the generated one.
  ///   - discussion: Longer help shown below the overview.
  ///   - version: The text `--version` prints; empty means no `--version` flag.
  ///   - subcommands: The commands that can follow this one.
  ///   - defaultSubcommand: The subcommand that runs when the arguments name none; it should
  ///     also be listed in `subcommands`.
  public init(
    commandName: String? = nil,
    abstract: String = "",
    usage: String? = nil,
    discussion: String = "",
    version: String = "",
    subcommands: [any ParsableCommand.Type] = [],
    defaultSubcommand: (any ParsableCommand.Type)? = nil
  ) {
    self.commandName = commandName
    self.abstract = abstract
    self.usage = usage
    self.discussion = discussion
    self.version = version
    self.subcommands = subcommands
    self.defaultSubcommand = defaultSubcommand
  }
}
