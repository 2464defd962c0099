/// A named option that takes a value: `--db path`, `--db=path` or `-d path`.
///
/// ```swift
/// @Option(help: "Concurrent requests.") var concurrency = 4
/// @Option(name: .customLong("db")) var databasePath: String?
/// @Option var root: [String] = []   // --root A --root B
/// ```
///
/// A property without a default and not `Optional` is required; an array collects every
/// occurrence and, without a default, needs at least one. A value that starts with a dash must
/// be attached, as in `--pattern=-x`, except for negative numbers.
@propertyWrapper
public struct Option<Value: Sendable>: Decodable, Sendable {
  var storage: ParsedProperty<Value>

  /// The parsed value.
  public var wrappedValue: Value {
    get { storage.value(of: "@Option") }
    set { storage = .value(newValue) }
  }

  // The initializers that can run without arguments live in the body rather than in
  // constrained extensions: a command's implicit `init()` only counts a wrapper as default
  // initializable, across modules, when that initializer is declared in the wrapper's body
  // (swiftlang/swift#59505).

  /// A required option.
  ///
  /// - Parameters:
  ///   - name: The option's names; the kebab-case property name by default.
  ///   - help: The option's help text.
  public init(name: NameSpecification = .long, help: ArgumentHelp? = nil)
  where Value: ExpressibleByArgument {
    self.init(
      storage: .valued(
        positional: false, names: name, help: help, parser: ArgumentValueParser<Value>.standard,
        initial: nil, repeating: false))
  }

  /// An optional option, `nil` when absent.
  ///
  /// - Parameters:
  ///   - name: The option's names; the kebab-case property name by default.
  ///   - help: The option's help text.
  public init<Element: ExpressibleByArgument>(
    name: NameSpecification = .long,
    help: ArgumentHelp? = nil
  ) where Value == Element? {
    self.init(
      storage: .valued(
        positional: false, names: name, help: help, parser: ArgumentValueParser<Element>.standard,
        initial: nil, repeating: false))
  }

  /// A repeatable option that must occur at least once.
  ///
  /// - Parameters:
  ///   - name: The option's names; the kebab-case property name by default.
  ///   - help: The option's help text.
  public init<Element: ExpressibleByArgument>(
    name: NameSpecification = .long,
    help: ArgumentHelp? = nil
  ) where Value == [Element] {
    self.init(
      storage: .valued(
        positional: false, names: name, help: help, parser: ArgumentValueParser<Element>.standard,
        initial: nil, repeating: true))
  }

  init(storage: ParsedProperty<Value>) {
    self.storage = storage
  }
}

extension Option {
  /// Takes the parsed value from the parser's decoder.
  ///
  /// - Parameter decoder: The parser's decoder; no other decoder can supply option values.
  /// - Throws: An error naming the property when the decoder is not the parser's.
  public init(from decoder: any Decoder) throws {
    self.init(storage: try ParsedProperty(from: decoder))
  }
}

extension Option: ArgumentDefinitionProvider {
  func argumentDefinitions(for key: InputKey) -> [ArgumentDefinition] {
    storage.definitions(for: key)
  }
}

// MARK: - Values that are ExpressibleByArgument

extension Option where Value: ExpressibleByArgument {
  /// An option with a default value.
  ///
  /// - Parameters:
  ///   - wrappedValue: The value when the option is absent, shown in help.
  ///   - name: The option's names; the kebab-case property name by default.
  ///   - help: The option's help text.
  public init(
    wrappedValue: Value,
    name: NameSpecification = .long,
    help: ArgumentHelp? = nil
  ) {
    self.init(
      storage: .valued(
        positional: false, names: name, help: help, parser: ArgumentValueParser<Value>.standard,
        initial: wrappedValue, repeating: false))
  }

}

extension Option {

  /// A repeatable option with a default; each occurrence adds an element.
  ///
  /// - Parameters:
  ///   - wrappedValue: The elements when the option is absent (given ones replace them).
  ///   - name: The option's names; the kebab-case property name by default.
  ///   - help: The option's help text.
  public init<Element: ExpressibleByArgument>(
    wrappedValue: [Element],
    name: NameSpecification = .long,
    help: ArgumentHelp? = nil
  ) where Value == [Element] {
    self.init(
      storage: .valued(
        positional: false, names: name, help: help, parser: ArgumentValueParser<Element>.standard,
        initial: wrappedValue, repeating: true))
  }

}

// MARK: - Values read by a transform

extension Option {
  /// An option with a default, read by a closure.
  ///
  /// - Parameters:
  ///   - wrappedValue: The value when the option is absent, shown in help.
  ///   - name: The option's names; the kebab-case property name by default.
  ///   - help: The option's help text.
  ///   - transform: Reads the value; what it throws is shown as the reason the value is
  ///     invalid.
  public init(
    wrappedValue: Value,
    name: NameSpecification = .long,
    help: ArgumentHelp? = nil,
    transform: @escaping @Sendable (String) throws -> Value
  ) {
    self.init(
      storage: .valued(
        positional: false, names: name, help: help, parser: .transform(transform),
        initial: wrappedValue, repeating: false))
  }

  /// An option read by a closure: required, or `nil` when absent if `Value` is `Optional`.
  ///
  /// - Parameters:
  ///   - name: The option's names; the kebab-case property name by default.
  ///   - help: The option's help text.
  ///   - transform: Reads the value; what it throws is shown as the reason the value is
  ///     invalid.
  public init(
    name: NameSpecification = .long,
    help: ArgumentHelp? = nil,
    transform: @escaping @Sendable (String) throws -> Value
  ) {
    self.init(
      storage: .valued(
        positional: false, names: name, help: help, parser: .transform(transform),
        initial: nil, repeating: false))
  }

  /// A repeatable option with a default, read by a closure; each occurrence adds an element.
  ///
  /// - Parameters:
  ///   - wrappedValue: The elements when the option is absent (given ones replace them).
  ///   - name: The option's names; the kebab-case property name by default.
  ///   - help: The option's help text.
  ///   - transform: Reads one element; what it throws is shown as the reason it is invalid.
  public init<Element: Sendable>(
    wrappedValue: [Element],
    name: NameSpecification = .long,
    help: ArgumentHelp? = nil,
    transform: @escaping @Sendable (String) throws -> Element
  ) where Value == [Element] {
    self.init(
      storage: .valued(
        positional: false, names: name, help: help, parser: .transform(transform),
        initial: wrappedValue, repeating: true))
  }

  /// A repeatable option read by a closure that must occur at least once.
  ///
  /// - Parameters:
  ///   - name: The option's names; the kebab-case property name by default.
  ///   - help: The option's help text.
  ///   - transform: Reads one element; what it throws is shown as the reason it is invalid.
  public init<Element: Sendable>(
    name: NameSpecification = .long,
    help: ArgumentHelp? = nil,
    transform: @escaping @Sendable (String) throws -> Element
  ) where Value == [Element] {
    self.init(
      storage: .valued(
        positional: false, names: name, help: help, parser: .transform(transform),
        initial: nil, repeating: true))
  }
}
