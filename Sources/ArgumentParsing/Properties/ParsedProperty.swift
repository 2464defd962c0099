/// The storage of an argument property wrapper: a definition while the parser discovers the
/// command's arguments, the parsed value afterwards.
enum ParsedProperty<Value: Sendable>: Sendable {
  /// Builds the definitions once the property's name is known.
  case definition(@Sendable (InputKey) -> [ArgumentDefinition])
  case value(Value)

  /// Takes the parsed value from the argument decoder.
  init(from decoder: any Decoder) throws {
    guard let decoder = decoder as? ArgumentDecoder else {
      throw ArgumentDeclarationError(
        message: "argument properties get their values from the command-line parser, not from "
          + "another decoder; build the command with parseAsRoot(_:)")
    }
    self = .value(try decoder.parsedValue(as: Value.self))
  }

  /// The value, for `wrappedValue`.
  func value(of wrapper: String) -> Value {
    switch self {
    case .value(let value):
      return value
    case .definition:
      // Only a command built with `init()` instead of being parsed gets here: that instance
      // describes its arguments and has no values, so there is nothing sound to return.
      preconditionFailure(
        "\(wrapper) property read before parsing: this command was built with init(), which "
          + "describes the arguments; build commands with parseAsRoot(_:) to read values")
    }
  }

  func definitions(for key: InputKey) -> [ArgumentDefinition] {
    guard case .definition(let makeDefinitions) = self else { return [] }
    return makeDefinitions(key)
  }

  /// The storage of an option or positional argument.
  ///
  /// - Parameters:
  ///   - initial: The value when the argument is absent; `nil` makes it required unless
  ///     `Value` is an `Optional`.
  ///   - repeating: Whether `Value` is `[Element]`, collecting every occurrence.
  static func valued<Element: Sendable>(
    positional: Bool,
    names: NameSpecification = [],
    help: ArgumentHelp?,
    parser: ArgumentValueParser<Element>,
    initial: Value?,
    repeating: Bool
  ) -> ParsedProperty {
    let help = help ?? ArgumentHelp()
    let update: ArgumentDefinition.ValueUpdate
    let defaultDescription: String?
    if repeating {
      update = { argument, current in
        var elements = current as? [Element] ?? []
        elements.append(try parser.parse(argument))
        return elements
      }
      let elements = (initial as? [Element] ?? []).map(parser.describe)
      defaultDescription = elements.isEmpty ? nil : elements.joined(separator: ", ")
    } else {
      update = { argument, _ in try parser.parse(argument) }
      defaultDescription = initial.flatMap { $0 as? Element }.map(parser.describe)
    }
    // Absent means `nil` for an `Optional` value, and "missing" for any other without a
    // default; the boxed `nil` keeps those two apart.
    let boxedInitial: (any Sendable)? =
      initial ?? (Value.self as? any OptionalValue.Type).flatMap { $0.absent as? Value }
    return .definition { key in
      [
        ArgumentDefinition(
          kind: positional ? .positional(update) : .option(update),
          key: key,
          names: positional ? [] : names.names(for: key),
          help: help,
          valueName: help.valueName ?? key.name.convertedToKebabCase(),
          isRepeating: repeating,
          initial: boxedInitial,
          defaultDescription: defaultDescription,
          allValues: parser.allValues
        )
      ]
    }
  }
}
