extension ArgumentDefinition {
  /// The argument as help lists it: `-o, --output <output>`, `--index/--no-index`, `<path>`.
  var helpLabel: String {
    // One-letter names first, as in `-h, --help`.
    let ordered = names.filter(\.isShort) + names.filter { !$0.isShort }
    let joined = ordered.map(\.synopsis).joined(separator: ", ")
    switch kind {
    case .positional:
      return "<\(valueName)>"
    case .option:
      return "\(joined) <\(valueName)>"
    case .flag:
      return ([joined] + negatedNames.map(\.synopsis)).joined(separator: "/")
    }
  }

  /// The argument as usage lines show it: `--db <db>`, `[--root <root> ...]`, `<paths> ...`.
  ///
  /// - Parameter bracketed: Whether an optional argument is shown in brackets.
  func synopsis(bracketed: Bool = true) -> String {
    let name = ArgumentName.preferred(in: names)?.synopsis ?? ""
    var synopsis: String
    switch kind {
    case .positional:
      synopsis = "<\(valueName)>"
    case .option:
      synopsis = "\(name) <\(valueName)>"
    case .flag:
      let negated = ArgumentName.preferred(in: negatedNames).map { "|\($0.synopsis)" } ?? ""
      synopsis = name + negated
    }
    if isRepeating {
      synopsis += " ..."
    }
    return bracketed && isOptional ? "[\(synopsis)]" : synopsis
  }

  /// The help text after the label: the abstract, then the valid values and the default.
  var helpAbstract: String {
    let values = allValues.isEmpty ? nil : "values: " + allValues.joined(separator: ", ")
    let defaultValue = defaultDescription.map { "default: \($0)" }
    let suffix = [values, defaultValue].compactMap { $0 }.joined(separator: "; ")
    return [help.abstract, suffix.isEmpty ? "" : "(\(suffix))"]
      .filter { !$0.isEmpty }
      .joined(separator: " ")
  }
}
