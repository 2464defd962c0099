import Foundation

/// What the tool prints and which status it exits with for an error thrown while parsing or
/// running a command.
struct ErrorReport {
  enum Destination {
    /// Help, version and `CleanExit.message` text: asked for, so it is output.
    case standardOutput
    case standardError
  }

  /// The message alone: the help text, or the error without `Error: ` and usage.
  var message: String
  /// Everything printed, without a trailing newline; empty when nothing is printed.
  var text: String
  var exitCode: ExitCode
  var destination: Destination
}

extension ErrorReport {
  /// Classifies `error` for the command tree under `root`.
  ///
  /// - Parameter columns: The width to wrap help and usage to.
  init(error: any Error, root: any ParsableCommand.Type, columns: Int) {
    var stack = [root]
    var thrown = error
    if let error = error as? CommandError {
      stack = error.stack
      switch error.kind {
      case .helpRequested:
        self.init(output: HelpGenerator(stack: stack, columns: columns).rendered())
        return
      case .versionRequested(let version):
        self.init(output: version)
        return
      case .usage(let message):
        self.init(usageError: message, stack: stack, columns: columns)
        return
      case .declaration(let message):
        self.init(failure: message, exitCode: .internalError)
        return
      case .thrown(let error):
        thrown = error
      }
    }

    switch thrown {
    case let error as ValidationError:
      self.init(usageError: error.message, stack: stack, columns: columns)
    case let error as CleanExit:
      switch error.kind {
      case .helpRequest(let command):
        let helpStack = command.map { root.commandStack(reaching: $0) ?? [$0] } ?? stack
        self.init(output: HelpGenerator(stack: helpStack, columns: columns).rendered())
      case .message(let text):
        self.init(output: text)
      }
    case let error as ExitCode:
      self.init(failure: "", exitCode: error)
    case let error as any CommandFailure:
      self.init(failure: error.message, exitCode: error.exitCode)
    default:
      self.init(failure: Self.describe(thrown), exitCode: .internalError)
    }
  }

  private init(output: String) {
    self.init(message: output, text: output, exitCode: .success, destination: .standardOutput)
  }

  private init(usageError message: String, stack: [any ParsableCommand.Type], columns: Int) {
    let help = HelpGenerator(stack: stack, columns: columns)
    let text = """
      Error: \(message)
      \(help.usage(prefix: "Usage: "))
        See '\(help.commandPath) --help' for more information.
      """
    self.init(
      message: message, text: text, exitCode: .validationFailure, destination: .standardError)
  }

  private init(failure message: String, exitCode: ExitCode) {
    self.init(
      message: message,
      text: message.isEmpty ? "" : "Error: \(message)",
      exitCode: exitCode,
      destination: .standardError)
  }

  /// Prints the text where it belongs, with a final newline.
  func write() {
    guard !text.isEmpty else { return }
    switch destination {
    case .standardOutput:
      print(text)
    case .standardError:
      FileHandle.standardError.write(Data((text + "\n").utf8))
    }
  }

  /// The most readable description of an error: `LocalizedError`'s if it has one, else its
  /// `description`.
  static func describe(_ error: any Error) -> String {
    (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
  }
}
