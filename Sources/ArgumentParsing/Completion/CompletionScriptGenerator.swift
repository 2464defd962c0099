/// Writes shell completion scripts for a command tree: subcommands, option names, the values an
/// option lists, and file names for other options that take a value.
///
/// The scripts are generated from the same declarations the parser reads, so they never drift
/// from the tool. Zsh uses the Bash script through `bashcompinit`, which every zsh ships.
struct CompletionScriptGenerator {
  /// One command of the tree, by its path of subcommand names.
  struct Node {
    var path: [String]
    var subcommands: [String]
    /// Every visible flag and option name, long and short.
    var words: [String]
    /// Option names that take a value, with the values they accept, and whether the value is
    /// a file name (judged from its value name: `path`, `file`, `cert`, …).
    var valueOptions: [(names: [String], values: [String], isFile: Bool)]
    var flags: [(long: String?, short: Character?, help: String)]
    var options: [(long: String?, short: Character?, values: [String], help: String)]
  }

  let root: any ParsableCommand.Type

  /// Words in a value name that mean "a file or folder".
  static let fileValueNames = [
    "path", "file", "dir", "folder", "cert", "csv", "world", "db", "config", "out", "key",
  ]

  /// Every command of the tree, depth first, the root first.
  func nodes() -> [Node] {
    var result: [Node] = []
    func visit(_ command: any ParsableCommand.Type, path: [String]) {
      let definitions = ArgumentDefinition.definitions(of: command).filter(\.isVisible)
      var node = Node(
        path: path, subcommands: command.configuration.subcommands.map { $0.commandName },
        words: ["--help"], valueOptions: [], flags: [], options: [])
      for definition in definitions where !definition.isPositional {
        let names = definition.names + definition.negatedNames
        node.words += names.map(\.synopsis)
        let long = definition.names.compactMap { name -> String? in
          if case .long(let text) = name { return text }
          return nil
        }.first
        let short = definition.names.compactMap { name -> Character? in
          if case .short(let character) = name { return character }
          return nil
        }.first
        let help = definition.help.abstract
        if case .option = definition.kind {
          let valueName = definition.valueName.lowercased()
          let isFile = Self.fileValueNames.contains { valueName.contains($0) }
          node.valueOptions.append((names.map(\.synopsis), definition.allValues, isFile))
          node.options.append((long, short, definition.allValues, help))
        } else {
          node.flags.append((long, short, help))
          for negated in definition.negatedNames {
            if case .long(let text) = negated { node.flags.append((text, nil, help)) }
          }
        }
      }
      result.append(node)
      for subcommand in command.configuration.subcommands {
        visit(subcommand, path: path + [subcommand.commandName])
      }
    }
    visit(root, path: [])
    return result
  }

  /// The script for `shell`.
  func script(for shell: CompletionShell) -> String {
    switch shell {
    case .bash: bash()
    case .zsh:
      "#compdef \(root.commandName)\nautoload -U +X bashcompinit && bashcompinit\n" + bash()
    case .fish: fish()
    }
  }

  private var functionName: String {
    "_" + root.commandName.map { $0.isLetter || $0.isNumber ? $0 : "_" }.map(String.init).joined()
  }

  private func bash() -> String {
    let nodes = nodes()
    let paths = nodes.filter { !$0.path.isEmpty }.map { $0.path.joined(separator: " ") }
    var lines = [
      "# Completion for \(root.commandName) in bash (and zsh through bashcompinit).",
      "# Install: \(root.commandName) --generate-completion-script bash > /etc/bash_completion.d/\(root.commandName)",
      "\(functionName)() {",
      "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"\"",
      "  (( COMP_CWORD > 0 )) && prev=\"${COMP_WORDS[COMP_CWORD-1]}\"",
      "  local path=\"\" word i",
      "  local commands=\(quote("|" + paths.joined(separator: "|") + "|"))",
      "  for (( i = 1; i < COMP_CWORD; i++ )); do",
      "    word=\"${COMP_WORDS[i]}\"",
      "    [[ $word == -* ]] && continue",
      "    if [[ $commands == *\"|${path:+$path }$word|\"* ]]; then path=\"${path:+$path }$word\"; fi",
      "  done",
      "  local words=\"\"",
      "  case \"$path\" in",
    ]
    for node in nodes {
      lines.append("    \(quote(node.path.joined(separator: " "))))")
      var body: [String] = []
      for option in node.valueOptions {
        let pattern = option.names.map(quote).joined(separator: "|")
        let values =
          !option.values.isEmpty
          ? "COMPREPLY=( $(compgen -W \(quote(option.values.joined(separator: " "))) -- \"$cur\") )"
          : option.isFile ? "COMPREPLY=( $(compgen -f -- \"$cur\") )" : "COMPREPLY=()"
        body.append("      case \"$prev\" in \(pattern)) \(values); return ;; esac")
      }
      body.append(
        "      words=\(quote((node.subcommands + node.words).joined(separator: " ")))")
      lines += body
      lines.append("      ;;")
    }
    lines += [
      "  esac",
      "  COMPREPLY=( $(compgen -W \"$words\" -- \"$cur\") )",
      "}",
      "complete -o default -F \(functionName) \(root.commandName)",
      "",
    ]
    return lines.joined(separator: "\n")
  }

  private func fish() -> String {
    let name = root.commandName
    var lines = [
      "# Completion for \(name) in fish.",
      "# Install: \(name) --generate-completion-script fish > ~/.config/fish/completions/\(name).fish",
    ]
    for node in nodes() {
      // A node's completions apply once its own path was typed and no subcommand below it.
      let condition: String
      if node.path.isEmpty {
        condition = "__fish_use_subcommand"
      } else {
        let children = node.subcommands.joined(separator: " ")
        condition =
          "__fish_seen_subcommand_from \(node.path.last ?? "")"
          + (children.isEmpty ? "" : "; and not __fish_seen_subcommand_from \(children)")
      }
      for subcommand in node.subcommands {
        lines.append("complete -c \(name) -f -n \(quote(condition)) -a \(quote(subcommand))")
      }
      for flag in node.flags {
        lines.append(
          "complete -c \(name) -n \(quote(condition))" + (flag.long.map { " -l \($0)" } ?? "")
            + (flag.short.map { " -s \($0)" } ?? "") + " -d \(quote(flag.help))")
      }
      for option in node.options {
        lines.append(
          "complete -c \(name) -n \(quote(condition)) -r"
            + (option.long.map { " -l \($0)" } ?? "") + (option.short.map { " -s \($0)" } ?? "")
            + (option.values.isEmpty
              ? " -F" : " -f -a \(quote(option.values.joined(separator: " ")))")
            + " -d \(quote(option.help))")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `text` in single quotes for any of the three shells.
  private func quote(_ text: String) -> String {
    let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
    return "'"
      + flat.split(separator: "'", omittingEmptySubsequences: false).joined(
        separator: "'\\''") + "'"
  }
}
