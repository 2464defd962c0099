/// A parsed and validated command, with the commands named on the way to it.
struct ParsedCommand {
  var command: any ParsableCommand
  /// The root command first, `type(of: command)` last.
  var stack: [any ParsableCommand.Type]
}
