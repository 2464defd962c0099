import ArgumentParsing

/// A failure that ends the command with one of the tool's documented exit codes.
enum ToolFailure: CommandFailure {
  /// Configuration or authentication is wrong (exit 3).
  case configuration(String)
  /// The run finished but some inputs or accounts could not be used (exit 4); the summary was
  /// already printed, so the message is short.
  case incomplete(String)
  /// Discrepancies crossed the threshold the user set (exit 1).
  case discrepancies(String)
  /// Another process holds the store (exit 75, `EX_TEMPFAIL`: try again later).
  case busy(String)
  /// A stop signal ended the work cleanly (exit 128 + the signal: 130, 143, 129).
  case stopped(signal: Int32, message: String)

  var exitCode: ExitCode {
    switch self {
    case .configuration: return ExitCode(3)
    case .incomplete: return ExitCode(4)
    case .discrepancies: return .failure
    case .busy: return ExitCode(75)
    case .stopped(let signal, _): return ExitCode(128 + signal)
    }
  }

  var message: String {
    switch self {
    case .configuration(let text), .incomplete(let text), .discrepancies(let text),
      .busy(let text):
      return text
    case .stopped(_, let text):
      return text
    }
  }
}
