/// An error raised while parsing or running a command, with the commands named on the command
/// line so that help and usage lines describe the right one.
struct CommandError: Error {
  enum Kind: Sendable {
    case helpRequested
    case versionRequested(String)
    /// The arguments do not fit the command; the message names the argument.
    case usage(String)
    /// The command's declaration is wrong, which is a bug in the tool.
    case declaration(String)
    /// Thrown by the command's `validate()` or `run()`.
    case thrown(any Error)
  }

  /// The root command first, the command that was parsed last.
  var stack: [any ParsableCommand.Type]
  var kind: Kind
}
