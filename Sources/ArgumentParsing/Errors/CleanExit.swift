/// Ends the command successfully after printing help or a message to standard output.
public struct CleanExit: Error, CustomStringConvertible {
  enum Kind: Sendable {
    case helpRequest((any ParsableCommand.Type)?)
    case message(String)
  }

  let kind: Kind

  /// Prints the help of `command`, or of the command that threw when `nil`.
  ///
  /// - Parameter command: The command whose help to print.
  /// - Returns: The error to throw.
  public static func helpRequest(_ command: (any ParsableCommand.Type)? = nil) -> CleanExit {
    CleanExit(kind: .helpRequest(command))
  }

  /// Prints the help of the command `command` is an instance of.
  ///
  /// - Parameter command: An instance of the command whose help to print.
  /// - Returns: The error to throw.
  public static func helpRequest(_ command: some ParsableCommand) -> CleanExit {
    CleanExit(kind: .helpRequest(type(of: command)))
  }

  /// Prints `text` and exits with status 0.
  ///
  /// - Parameter text: What to print.
  /// - Returns: The error to throw.
  public static func message(_ text: String) -> CleanExit {
    CleanExit(kind: .message(text))
  }

  /// What the exit prints, in brief.
  public var description: String {
    switch kind {
    case .helpRequest(let command?): return "help for \(command.commandName)"
    case .helpRequest(nil): return "help"
    case .message(let text): return text
    }
  }
}
