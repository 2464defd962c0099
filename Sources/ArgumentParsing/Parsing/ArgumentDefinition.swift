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
}
