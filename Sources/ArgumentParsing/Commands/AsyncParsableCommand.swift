/// A command whose work is asynchronous.
///
/// The tool's `main()` awaits ``run()``; a root command may be synchronous and still have
/// asynchronous subcommands.
public protocol AsyncParsableCommand: ParsableCommand {
  /// Does the command's work with the parsed arguments.
  ///
  /// - Throws: The same errors as ``ParsableCommand/run()``, with the same meaning.
  mutating func run() async throws
}

extension AsyncParsableCommand {
  /// Satisfies the synchronous requirement; `main()` never calls it for an asynchronous
  /// command.
  ///
  /// - Throws: `CleanExit.helpRequest` for this command, always.
  public mutating func run() throws {
    throw CleanExit.helpRequest(Self.self)
  }
}
