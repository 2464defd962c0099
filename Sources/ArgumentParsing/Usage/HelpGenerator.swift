/// Renders a command's help and usage line in swift-argument-parser's layout: `OVERVIEW:`,
/// `USAGE:`, then `ARGUMENTS:`, `OPTIONS:` and `SUBCOMMANDS:` with the help text in a column.
struct HelpGenerator {
  /// Where labels start.
  private static let indent = 2
  /// Where help text starts; a longer label puts its text on the next line.
  private static let textColumn = 26
  /// Past this many arguments, the usage line keeps the required ones and says `[<options>]`.
  private static let usageArgumentLimit = 12

  /// The root command first, the command described last; never empty.
  var stack: [any ParsableCommand.Type]
  var columns: Int

  private var command: any ParsableCommand.Type { stack[stack.count - 1] }

  /// The names typed to reach the command: `receipt-migrate store vacuum`.
  var commandPath: String {
    stack.map { $0.commandName }.joined(separator: " ")
  }

  /// The full help text, without a trailing newline.
  func rendered() -> String {
    let configuration = command.configuration
    let allDefinitions = ArgumentDefinition.definitions(of: command)
    let definitions = allDefinitions.filter(\.isVisible)
    var blocks: [String] = []
    if !configuration.abstract.isEmpty {
      blocks.append(TextWrapper.wrap("OVERVIEW: " + configuration.abstract, width: columns))
    }
    if !configuration.discussion.isEmpty {
      blocks.append(TextWrapper.wrap(configuration.discussion, width: columns))
    }
    blocks.append(usage(prefix: "USAGE: ", definitions: definitions))

    let arguments = definitions.filter(\.isPositional).map {
      row(label: $0.helpLabel, text: $0.helpAbstract, discussion: $0.help.discussion)
    }
    let options =
      definitions.filter { !$0.isPositional }.map {
        row(label: $0.helpLabel, text: $0.helpAbstract, discussion: $0.help.discussion)
      } + builtinRows(besides: allDefinitions)
    let subcommands = configuration.subcommands.map { subcommand in
      let isDefault = configuration.defaultSubcommand.map { $0 == subcommand } ?? false
      return row(
        label: subcommand.commandName + (isDefault ? " (default)" : ""),
        text: subcommand.configuration.abstract)
    }
    for (title, rows) in [
      ("ARGUMENTS", arguments), ("OPTIONS", options), ("SUBCOMMANDS", subcommands),
    ]
    where !rows.isEmpty {
      blocks.append("\(title):\n" + rows.joined(separator: "\n"))
    }
    if !subcommands.isEmpty {
      let helpPath = ([stack[0].commandName, "help"] + stack.dropFirst().map { $0.commandName })
        .joined(separator: " ")
      blocks.append("  See '\(helpPath) <subcommand>' for detailed help.")
    }
    return blocks.joined(separator: "\n\n")
  }

  /// The usage line after `prefix` (`USAGE: ` in help, `Usage: ` after an error), wrapped
  /// so that continuation lines align after the prefix.
  func usage(prefix: String) -> String {
    usage(
      prefix: prefix, definitions: ArgumentDefinition.definitions(of: command).filter(\.isVisible))
  }

  private func usage(prefix: String, definitions: [ArgumentDefinition]) -> String {
    if let custom = command.configuration.usage {
      return prefix + custom
    }
    var words = [commandPath]
    if definitions.count > Self.usageArgumentLimit {
      words.append("[<options>]")
      words += definitions.filter { $0.isPositional || !$0.isOptional }.map { $0.synopsis() }
    } else {
      words += definitions.map { $0.synopsis() }
    }
    if !command.configuration.subcommands.isEmpty {
      words.append("<subcommand>")
    }
    return TextWrapper.wrap(words: words, width: columns, firstLine: prefix, indent: prefix.count)
  }

  /// `--version` (when a command on the way has a version) and `-h, --help`, unless the
  /// command declares those names itself.
  private func builtinRows(besides definitions: [ArgumentDefinition]) -> [String] {
    let declared = Set(definitions.flatMap { $0.names + $0.negatedNames })
    var rows: [String] = []
    if stack.contains(where: { !$0.configuration.version.isEmpty }),
      !declared.contains(.long("version"))
    {
      rows.append(row(label: "--version", text: "Show the version."))
    }
    let helpNames = [ArgumentName.short("h"), .long("help")].filter { !declared.contains($0) }
    if !helpNames.isEmpty {
      rows.append(
        row(
          label: helpNames.map(\.synopsis).joined(separator: ", "), text: "Show help information."))
    }
    return rows
  }

  /// One entry of a section: the label, then the text in its column, wrapped.
  private func row(label: String, text: String, discussion: String = "") -> String {
    let label = String(repeating: " ", count: Self.indent) + label
    let margin = String(repeating: " ", count: Self.textColumn)
    var row: String
    if text.isEmpty {
      row = label
    } else if label.count < Self.textColumn {
      let padded = label + String(repeating: " ", count: Self.textColumn - label.count)
      row = TextWrapper.wrap(text, width: columns, firstLine: padded, indent: Self.textColumn)
    } else {
      row =
        label + "\n"
        + TextWrapper.wrap(text, width: columns, firstLine: margin, indent: Self.textColumn)
    }
    if !discussion.isEmpty {
      row +=
        "\n"
        + TextWrapper.wrap(discussion, width: columns, firstLine: margin, indent: Self.textColumn)
    }
    return row
  }
}
