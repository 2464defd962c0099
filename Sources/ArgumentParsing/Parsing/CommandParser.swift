/// Walks the arguments from the root command down to the subcommand they name, then fills
/// that command's properties from the rest.
///
/// Subcommand names come first (`receipt-migrate store vacuum --dry-run`); everything after
/// the last one belongs to that command. Every error is a ``CommandError`` carrying the
/// commands named so far, so that its usage line describes the right command.
struct CommandParser {
  var root: any ParsableCommand.Type

  /// Tokens that never select the default subcommand: they are about the command itself.
  private static let builtinRequests: Set<String> = ["-h", "--help", "--version"]

  /// The root option that prints a shell completion script, as swift-argument-parser names it.
  static let completionOption = "--generate-completion-script"

  func parse(_ arguments: [String]) throws -> ParsedCommand {
    if arguments.first == Self.completionOption
      || arguments.first?.hasPrefix(Self.completionOption + "=") == true
    {
      throw completionScript(arguments)
    }
    var stack = [root]
    var command = root
    var tokens = arguments[...]
    while !command.configuration.subcommands.isEmpty {
      let configuration = command.configuration
      let subcommand: any ParsableCommand.Type
      if let name = tokens.first,
        let named = configuration.subcommands.first(where: { $0.commandName == name })
      {
        tokens.removeFirst()
        subcommand = named
      } else if stack.count == 1, tokens.first == "help" {
        throw CommandError(stack: try helpStack(naming: tokens.dropFirst()), kind: .helpRequested)
      } else if let fallback = configuration.defaultSubcommand,
        !Self.builtinRequests.contains(tokens.first ?? "")
      {
        subcommand = fallback
      } else {
        break
      }
      command = subcommand
      stack.append(subcommand)
    }

    let values = try parseValues(Array(tokens), of: command, stack: stack)
    do {
      var parsed = try command.init(from: ArgumentDecoder(values: values))
      try parsed.validate()
      return ParsedCommand(command: parsed, stack: stack)
    } catch let error as ArgumentDeclarationError {
      throw CommandError(
        stack: stack, kind: .declaration("command '\(command.commandName)': \(error.message)"))
    } catch {
      throw CommandError(stack: stack, kind: .thrown(error))
    }
  }

  /// The script `--generate-completion-script <shell>` asks for, as a clean exit that prints
  /// it; a missing or unknown shell is a usage error listing the shells.
  private func completionScript(_ arguments: [String]) -> any Error {
    let first = arguments[0]
    let shellName =
      first.contains("=")
      ? String(first.split(separator: "=", maxSplits: 1)[1]) : arguments.dropFirst().first
    let shells = CompletionShell.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
    guard let shellName, let shell = CompletionShell(rawValue: shellName) else {
      return CommandError(
        stack: [root],
        kind: .usage(
          "\(Self.completionOption) needs a shell: \(shells)"
            + (shellName.map { "; '\($0)' is not one" } ?? "")))
    }
    return CleanExit.message(CompletionScriptGenerator(root: root).script(for: shell))
  }

  /// The commands `help a b` names, for `receipt-migrate help a b`.
  private func helpStack(naming names: ArraySlice<String>) throws -> [any ParsableCommand.Type] {
    var stack = [root]
    var command = root
    for name in names where !name.hasPrefix("-") {
      guard
        let subcommand = command.configuration.subcommands.first(where: { $0.commandName == name })
      else {
        throw CommandError(stack: stack, kind: .usage(Self.unknownSubcommand(name, of: command)))
      }
      stack.append(subcommand)
      command = subcommand
    }
    return stack
  }

  // MARK: - Values

  /// Parses `tokens` into the value of every argument property of `command`, keyed by
  /// property; absent arguments get their defaults.
  private func parseValues(
    _ tokens: [String],
    of command: any ParsableCommand.Type,
    stack: [any ParsableCommand.Type]
  ) throws -> [InputKey: any Sendable] {
    func usageError(_ message: String) -> CommandError {
      CommandError(stack: stack, kind: .usage(message))
    }
    let definitions = ArgumentDefinition.definitions(of: command)
    let byName = try Self.index(definitions, of: command, stack: stack)

    // Help and version win over every other problem, so `--help` works while learning.
    let declared = Set(byName.keys.map(\.synopsis))
    let options = tokens.prefix { $0 != "--" }
    if options.contains(where: { ($0 == "-h" || $0 == "--help") && !declared.contains($0) }) {
      throw CommandError(stack: stack, kind: .helpRequested)
    }
    if options.contains("--version"), !declared.contains("--version"),
      let version = stack.reversed().map({ $0.configuration.version }).first(where: { !$0.isEmpty })
    {
      throw CommandError(stack: stack, kind: .versionRequested(version))
    }

    var values: [InputKey: any Sendable] = [:]
    func store(
      _ argument: String,
      for definition: ArgumentDefinition,
      named name: ArgumentName?,
      update: ArgumentDefinition.ValueUpdate
    ) throws {
      do {
        values[definition.key] = try update(argument, values[definition.key])
      } catch {
        let reason =
          error is InvalidArgumentValue ? (error as? InvalidArgumentValue)?.reason : error
        throw usageError(
          Self.invalidValue(argument, for: definition, named: name, reason: reason))
      }
    }

    var positionalTokens: [String] = []
    var index = tokens.startIndex
    var onlyPositionals = false
    while index < tokens.endIndex {
      let token = tokens[index]
      index += 1
      if onlyPositionals || !Self.isOptionLike(token) {
        positionalTokens.append(token)
        continue
      }
      if token == "--" {
        onlyPositionals = true
        continue
      }

      // `--name value`, `--name=value`, `-n value`, and groups of one-letter flags such as
      // `-vq`, whose last letter may take a value (`-vo out.csv`).
      var occurrences: [(name: ArgumentName, attached: String?)] = []
      if token.hasPrefix("--") {
        let body = token.dropFirst(2)
        let name = body.prefix { $0 != "=" }
        let attached =
          name.endIndex < body.endIndex ? String(body[body.index(after: name.endIndex)...]) : nil
        occurrences = [(.long(String(name)), attached)]
      } else {
        occurrences = token.dropFirst().map { (.short($0), nil) }
      }
      for (position, occurrence) in occurrences.enumerated() {
        guard let definition = byName[occurrence.name] else {
          let typed = occurrence.name.synopsis
          let known = byName.keys.map(\.synopsis).filter { $0.hasPrefix("--") }
          if let suggestion = NameSuggestion.closest(to: typed, among: known) {
            throw usageError("Unknown option '\(typed)'. Did you mean '\(suggestion)'?")
          }
          throw usageError("Unknown option '\(typed)'")
        }
        switch definition.kind {
        case .flag(let update):
          if let attached = occurrence.attached {
            throw usageError(
              "The option '\(occurrence.name.synopsis)' does not take any value, "
                + "but '\(attached)' was specified.")
          }
          let negated = definition.negatedNames.contains(occurrence.name)
          values[definition.key] = update(negated, values[definition.key])
        case .option(let update):
          let argument: String
          if let attached = occurrence.attached {
            argument = attached
          } else if position == occurrences.count - 1, index < tokens.endIndex,
            !Self.isOptionLike(tokens[index])
          {
            argument = tokens[index]
            index += 1
          } else {
            throw usageError(
              "Missing value for '\(occurrence.name.synopsis) <\(definition.valueName)>'")
          }
          try store(argument, for: definition, named: occurrence.name, update: update)
        case .positional:
          break  // Positional arguments have no names, so they are never looked up by one.
        }
      }
    }

    var remaining = positionalTokens[...]
    for definition in definitions {
      guard case .positional(let update) = definition.kind else { continue }
      repeat {
        guard let argument = remaining.popFirst() else { break }
        try store(argument, for: definition, named: nil, update: update)
      } while definition.isRepeating
    }
    if let first = remaining.first {
      if !command.configuration.subcommands.isEmpty, !definitions.contains(where: \.isPositional) {
        throw usageError(Self.unknownSubcommand(first, of: command))
      }
      throw usageError(
        remaining.count == 1
          ? "Unexpected argument '\(first)'"
          : "\(remaining.count) unexpected arguments: "
            + remaining.map { "'\($0)'" }.joined(separator: ", "))
    }

    for definition in definitions where values[definition.key] == nil {
      guard let initial = definition.initial else {
        throw usageError(Self.missing(definition))
      }
      values[definition.key] = initial
    }
    return values
  }

  /// The definitions by every name they answer to.
  ///
  /// - Throws: A declaration error when two properties share a name or a repeating positional
  ///   argument is not the last one, which would make parsing ambiguous.
  private static func index(
    _ definitions: [ArgumentDefinition],
    of command: any ParsableCommand.Type,
    stack: [any ParsableCommand.Type]
  ) throws -> [ArgumentName: ArgumentDefinition] {
    func declarationError(_ message: String) -> CommandError {
      CommandError(stack: stack, kind: .declaration("command '\(command.commandName)': \(message)"))
    }
    var byName: [ArgumentName: ArgumentDefinition] = [:]
    for definition in definitions {
      for name in definition.names + definition.negatedNames {
        guard byName[name] == nil else {
          throw declarationError(
            "two properties answer to '\(name.synopsis)'; rename one with "
              + "name: .customLong(_:) or .customShort(_:)")
        }
        byName[name] = definition
      }
    }
    let positionals = definitions.filter(\.isPositional)
    if let repeating = positionals.dropLast().first(where: \.isRepeating) {
      throw declarationError(
        "the repeating argument '<\(repeating.valueName)>' takes every remaining argument, so "
          + "it must be declared after the other positional arguments")
    }
    return byName
  }

  // MARK: - Tokens and messages

  /// Whether `token` is an option rather than a value; `-` (standard input) and negative
  /// numbers are values.
  private static func isOptionLike(_ token: String) -> Bool {
    token.hasPrefix("-") && token != "-" && Double(token) == nil
  }

  private static func invalidValue(
    _ argument: String,
    for definition: ArgumentDefinition,
    named name: ArgumentName?,
    reason: (any Error)?
  ) -> String {
    let label =
      name.map { "\($0.synopsis) <\(definition.valueName)>" } ?? "<\(definition.valueName)>"
    let message = "The value '\(argument)' is invalid for '\(label)'"
    if let reason {
      return message + ": " + ErrorReport.describe(reason)
    }
    if definition.allValues.isEmpty {
      return message
    }
    let values = definition.allValues.map { "'\($0)'" }.joined(separator: ", ")
    return message + ". Please provide one of \(values)."
  }

  private static func missing(_ definition: ArgumentDefinition) -> String {
    if case .flag = definition.kind, !definition.negatedNames.isEmpty {
      let names = (definition.names + definition.negatedNames).map { "'\($0.synopsis)'" }
      return "Missing one of: " + names.joined(separator: ", ")
    }
    return "Missing expected argument '\(definition.synopsis(bracketed: false))'"
  }

  private static func unknownSubcommand(_ name: String, of command: any ParsableCommand.Type)
    -> String
  {
    let known = command.configuration.subcommands.map { $0.commandName }
    guard !known.isEmpty else {
      return "'\(command.commandName)' has no subcommand '\(name)'"
    }
    if let suggestion = NameSuggestion.closest(to: name, among: known) {
      return "Unknown subcommand '\(name)'. Did you mean '\(suggestion)'?"
    }
    let names = known.map { "'\($0)'" }
    return "Unknown subcommand '\(name)'. Please provide one of \(names.joined(separator: ", "))."
  }
}
