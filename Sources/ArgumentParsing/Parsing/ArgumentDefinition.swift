/// Everything the parser and the help generator know about one argument property.
///
/// Values travel as `any Sendable` between the parser and the decoder because one parse fills
/// properties of many value types; each wrapper casts its own value back to its `Value`.
struct ArgumentDefinition: Sendable {
  /// Folds one occurrence of an argument that takes a value into the value so far.
  typealias ValueUpdate =
    @Sendable (_ argument: String, _ current: (any Sendable)?) throws ->
    any Sendable
  /// Folds one occurrence of a flag into the value so far; `negated` is true for `--no-x`.
  typealias PresenceUpdate = @Sendable (_ negated: Bool, _ current: (any Sendable)?) -> any Sendable

  enum Kind: Sendable {
    case option(ValueUpdate)
    case flag(PresenceUpdate)
    case positional(ValueUpdate)
  }

  var kind: Kind
  var key: InputKey
  /// The names that set the flag or option; empty for a positional argument.
  var names: [ArgumentName] = []
  /// The names that turn an inverted flag off, such as `--no-index`.
  var negatedNames: [ArgumentName] = []
  var help: ArgumentHelp
  var valueName: String
  /// Whether the argument may occur more than once, each occurrence adding to the value.
  var isRepeating: Bool
  /// The value when the argument does not occur; `nil` makes the argument required.
  var initial: (any Sendable)?
  /// The default shown in help, such as `4` or `--index`.
  var defaultDescription: String?
  /// The valid values shown in help and errors; empty when the values are open-ended.
  var allValues: [String] = []

  var isOptional: Bool { initial != nil }

  var isPositional: Bool {
    if case .positional = kind { return true }
    return false
  }

  var isVisible: Bool { help.visibility == .default }

  /// The definition of an option or positional argument whose elements `parser` reads.
  ///
  /// - Parameters:
  ///   - initial: The value when absent, already boxed; `nil` makes the argument required.
  ///   - repeating: Whether occurrences collect into an array instead of replacing each other.
  static func valued<Element: Sendable>(
    positional: Bool,
    key: InputKey,
    names: NameSpecification,
    help: ArgumentHelp?,
    parser: ArgumentValueParser<Element>,
    initial: (any Sendable)?,
    defaultDescription: String?,
    repeating: Bool
  ) -> ArgumentDefinition {
    let update: ValueUpdate
    if repeating {
      update = { argument, current in
        var elements = current as? [Element] ?? []
        elements.append(try parser.parse(argument))
        return elements
      }
    } else {
      update = { argument, _ in try parser.parse(argument) }
    }
    let help = help ?? ArgumentHelp()
    return ArgumentDefinition(
      kind: positional ? .positional(update) : .option(update),
      key: key,
      names: positional ? [] : names.names(for: key),
      help: help,
      valueName: help.valueName ?? key.name.convertedToKebabCase(),
      isRepeating: repeating,
      initial: initial,
      defaultDescription: defaultDescription,
      allValues: parser.allValues
    )
  }

  /// `value` boxed as an initial value; when it is `nil` and `Value` is an `Optional`, the
  /// argument is optional and its initial value is `nil` (boxed, so not "required").
  static func initialValue<Value: Sendable>(_ value: Value?) -> (any Sendable)? {
    if let value {
      return value
    }
    guard let optional = Value.self as? any OptionalValue.Type else { return nil }
    return optional.absent as? Value
  }
}
