import Glibc

// MARK: - Running

extension ParsableCommand {
  /// Parses `CommandLine.arguments`, runs the command they name and exits with its status.
  ///
  /// Mark the root command `@main` to make this the tool's entry point.
  public static func main() async {
    await main(nil)
  }

  /// Parses `arguments`, runs the command they name and exits with its status.
  ///
  /// Help and version requests print to standard output and exit 0; usage errors print the
  /// error and the usage line to standard error and exit 2; errors from `run()` exit as
  /// ``exitCode(for:)`` says.
  ///
  /// - Parameter arguments: The arguments without the tool's own name; `nil` reads
  ///   `CommandLine.arguments`.
  public static func main(_ arguments: [String]?) async {
    let arguments = arguments ?? Array(CommandLine.arguments.dropFirst())
    guard let report = await execute(arguments, columns: ScreenWidth.current()) else { return }
    report.write()
    Glibc.exit(report.exitCode.rawValue)
  }

  /// Prints what `error` calls for and exits with its status; exits 0 when `error` is `nil`.
  ///
  /// - Parameter error: An error from parsing or running a command of this tool.
  /// - Returns: Never; the process ends.
  public static func exit(withError error: (any Error)? = nil) -> Never {
    guard let error else {
      Glibc.exit(ExitCode.success.rawValue)
    }
    let report = ErrorReport(error: error, root: self, columns: ScreenWidth.current())
    report.write()
    Glibc.exit(report.exitCode.rawValue)
  }

  /// Parses `arguments` and runs the command they name.
  ///
  /// - Returns: What to print and the status to exit with, or `nil` when the command ran to
  ///   completion.
  static func execute(_ arguments: [String], columns: Int) async -> ErrorReport? {
    let parsed: ParsedCommand
    do {
      parsed = try CommandParser(root: self).parse(arguments)
    } catch {
      return ErrorReport(error: error, root: self, columns: columns)
    }
    var command = parsed.command
    do {
      if var asyncCommand = command as? any AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
      return nil
    } catch {
      // Keep the parsed commands, so that a usage error or a help request from run() shows
      // the subcommand's usage rather than the root's.
      let error = CommandError(stack: parsed.stack, kind: .thrown(error))
      return ErrorReport(error: error, root: self, columns: columns)
    }
  }
}

// MARK: - Parsing and messages, for tests and custom entry points

extension ParsableCommand {
  /// Parses `arguments` from this root command down to the subcommand they name, and
  /// validates it.
  ///
  /// - Parameter arguments: The arguments without the tool's own name; `nil` reads
  ///   `CommandLine.arguments`.
  /// - Returns: The parsed command, ready to run.
  /// - Throws: An error describing a help or version request or a usage error; pass it to
  ///   ``message(for:columns:)``, ``fullMessage(for:columns:)`` and ``exitCode(for:)``.
  public static func parseAsRoot(_ arguments: [String]? = nil) throws -> any ParsableCommand {
    try CommandParser(root: self).parse(arguments ?? Array(CommandLine.arguments.dropFirst()))
      .command
  }

  /// The status the tool exits with for `error`.
  ///
  /// 0 for help and version requests and `CleanExit`; 2 for usage errors and
  /// ``ValidationError``; the code of an ``ExitCode`` or ``CommandFailure``; 70 otherwise.
  ///
  /// - Parameter error: An error from parsing or running a command of this tool.
  /// - Returns: The exit status.
  public static func exitCode(for error: any Error) -> ExitCode {
    ErrorReport(error: error, root: self, columns: 80).exitCode
  }

  /// The message for `error` alone: the help or version text, or the error's message without
  /// `Error: ` and the usage line.
  ///
  /// - Parameters:
  ///   - error: An error from parsing or running a command of this tool.
  ///   - columns: The width to wrap help to; `nil` uses the terminal's.
  /// - Returns: The message.
  public static func message(for error: any Error, columns: Int? = nil) -> String {
    ErrorReport(error: error, root: self, columns: columns ?? ScreenWidth.current()).message
  }

  /// Everything the tool prints for `error`, as `main()` prints it (without the final
  /// newline): help text, or `Error: ...` followed by the usage line for usage errors.
  ///
  /// - Parameters:
  ///   - error: An error from parsing or running a command of this tool.
  ///   - columns: The width to wrap help and usage to; `nil` uses the terminal's.
  /// - Returns: The printed text; empty when nothing is printed.
  public static func fullMessage(for error: any Error, columns: Int? = nil) -> String {
    ErrorReport(error: error, root: self, columns: columns ?? ScreenWidth.current()).text
  }

  /// The help text of `subcommand`, as `--help` prints it.
  ///
  /// - Parameters:
  ///   - subcommand: This command or one of its subcommands, at any depth.
  ///   - columns: The width to wrap help to; `nil` uses the terminal's.
  /// - Returns: The help text, without a trailing newline.
  public static func helpMessage(
    for subcommand: any ParsableCommand.Type,
    columns: Int? = nil
  ) -> String {
    let stack = commandStack(reaching: subcommand) ?? [subcommand]
    return HelpGenerator(stack: stack, columns: columns ?? ScreenWidth.current()).rendered()
  }

  /// The commands from this one down to `target`, or `nil` when `target` is not below it.
  static func commandStack(reaching target: any ParsableCommand.Type)
    -> [any ParsableCommand.Type]?
  {
    if self == target {
      return [self]
    }
    for subcommand in configuration.subcommands {
      if let stack = subcommand.commandStack(reaching: target) {
        return [self] + stack
      }
    }
    return nil
  }
}
