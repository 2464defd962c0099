/// A command that parses its arguments and then runs.
///
/// A command either does the work itself in ``run()`` or names subcommands in its
/// ``configuration``; the root command of a tool is the one marked `@main`, whose inherited
/// `main()` parses `CommandLine.arguments`, runs the chosen command and exits with its code.
public protocol ParsableCommand: ParsableArguments {
  /// The command's name, documentation, version and subcommands.
  static var configuration: CommandConfiguration { get }

  /// Does the command's work with the parsed arguments.
  ///
  /// - Throws: ``ExitCode`` to exit quietly with a code, ``ValidationError`` for a usage
  ///   error, ``CleanExit`` to print help or a message, a ``CommandFailure`` for a reported
  ///   failure with its own exit code; any other error exits with code 70.
  mutating func run() throws
}

extension ParsableCommand {
  /// A configuration with every field at its default: the name comes from the type's name.
  public static var configuration: CommandConfiguration { CommandConfiguration() }

  /// Shows the command's help, which is what a command that only groups subcommands does.
  ///
  /// - Throws: `CleanExit.helpRequest` for this command, always.
  public mutating func run() throws {
    throw CleanExit.helpRequest(Self.self)
  }

  /// The name users type: the configured one, or the type's name in kebab-case.
  static var commandName: String {
    configuration.commandName ?? String(describing: Self.self).convertedToKebabCase()
  }
}
