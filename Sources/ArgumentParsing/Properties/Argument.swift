/// A positional argument, matched by its place among the arguments that are not options.
///
/// ```swift
/// @Argument(help: "The exported receipts.") var paths: [String]   // <paths> ...
/// @Argument var accountID: String?                                // [<account-id>]
/// ```
///
/// An array takes every remaining positional argument, so it must be the last one declared.
@propertyWrapper
public struct Argument<Value: Sendable>: Decodable, Sendable {
  var storage: ParsedProperty<Value>

  /// The parsed value.
  public var wrappedValue: Value {
    get { storage.value(of: "@Argument") }
    set { storage = .value(newValue) }
  }

  // The initializers that can run without arguments live in the body rather than in
  // constrained extensions: a command's implicit `init()` only counts a wrapper as default
  // initializable, across modules, when that initializer is declared in the wrapper's body
  // (swiftlang/swift#59505).

  /// A required argument.
  ///
  /// - Parameter help: The argument's help text.
  public init(help: ArgumentHelp? = nil) where Value: ExpressibleByArgument {
    self.init(
      storage: .valued(
        positional: true, help: help, parser: ArgumentValueParser<Value>.standard, initial: nil,
        repeating: false))
  }

  /// An optional argument, `nil` when absent.
  ///
  /// - Parameter help: The argument's help text.
  public init<Element: ExpressibleByArgument>(help: ArgumentHelp? = nil) where Value == Element? {
    self.init(
      storage: .valued(
        positional: true, help: help, parser: ArgumentValueParser<Element>.standard, initial: nil,
        repeating: false))
  }

  /// Every remaining positional argument; at least one is required.
  ///
  /// - Parameter help: The argument's help text.
  public init<Element: ExpressibleByArgument>(help: ArgumentHelp? = nil) where Value == [Element] {
    self.init(
      storage: .valued(
        positional: true, help: help, parser: ArgumentValueParser<Element>.standard, initial: nil,
        repeating: true))
  }

  init(storage: ParsedProperty<Value>) {
    self.storage = storage
  }
}

extension Argument {
  /// Takes the parsed value from the parser's decoder.
  ///
  /// - Parameter decoder: The parser's decoder; no other decoder can supply argument values.
  /// - Throws: An error naming the property when the decoder is not the parser's.
  public init(from decoder: any Decoder) throws {
    self.init(storage: try ParsedProperty(from: decoder))
  }
}

extension Argument: ArgumentDefinitionProvider {
  func argumentDefinitions(for key: InputKey) -> [ArgumentDefinition] {
    storage.definitions(for: key)
  }
}

// MARK: - Values that are ExpressibleByArgument

extension Argument where Value: ExpressibleByArgument {
  /// An argument with a default value.
  ///
  /// - Parameters:
  ///   - wrappedValue: The value when the argument is absent, shown in help.
  ///   - help: The argument's help text.
  public init(wrappedValue: Value, help: ArgumentHelp? = nil) {
    self.init(
      storage: .valued(
        positional: true, help: help, parser: ArgumentValueParser<Value>.standard,
        initial: wrappedValue, repeating: false))
  }

}

extension Argument {

  /// Every remaining positional argument, with a default when there are none.
  ///
  /// - Parameters:
  ///   - wrappedValue: The elements when there are no remaining arguments.
  ///   - help: The argument's help text.
  public init<Element: ExpressibleByArgument>(
    wrappedValue: [Element],
    help: ArgumentHelp? = nil
  ) where Value == [Element] {
    self.init(
      storage: .valued(
        positional: true, help: help, parser: ArgumentValueParser<Element>.standard,
        initial: wrappedValue, repeating: true))
  }

}

// MARK: - Values read by a transform

extension Argument {
  /// An argument with a default, read by a closure.
  ///
  /// - Parameters:
  ///   - wrappedValue: The value when the argument is absent, shown in help.
  ///   - help: The argument's help text.
  ///   - transform: Reads the value; what it throws is shown as the reason it is invalid.
  public init(
    wrappedValue: Value,
    help: ArgumentHelp? = nil,
    transform: @escaping @Sendable (String) throws -> Value
  ) {
    self.init(
      storage: .valued(
        positional: true, help: help, parser: .transform(transform), initial: wrappedValue,
        repeating: false))
  }

  /// An argument read by a closure: required, or `nil` when absent if `Value` is `Optional`.
  ///
  /// - Parameters:
  ///   - help: The argument's help text.
  ///   - transform: Reads the value; what it throws is shown as the reason it is invalid.
  public init(
    help: ArgumentHelp? = nil,
    transform: @escaping @Sendable (String) throws -> Value
  ) {
    self.init(
      storage: .valued(
        positional: true, help: help, parser: .transform(transform), initial: nil,
        repeating: false))
  }

  /// Every remaining positional argument, each read by a closure, with a default.
  ///
  /// - Parameters:
  ///   - wrappedValue: The elements when there are no remaining arguments.
  ///   - help: The argument's help text.
  ///   - transform: Reads one element; what it throws is shown as the reason it is invalid.
  public init<Element: Sendable>(
    wrappedValue: [Element],
    help: ArgumentHelp? = nil,
    transform: @escaping @Sendable (String) throws -> Element
  ) where Value == [Element] {
    self.init(
      storage: .valued(
        positional: true, help: help, parser: .transform(transform), initial: wrappedValue,
        repeating: true))
  }

  /// Every remaining positional argument, each read by a closure; at least one is required.
  ///
  /// - Parameters:
  ///   - help: The argument's help text.
  ///   - transform: Reads one element; what it throws is shown as the reason it is invalid.
  public init<Element: Sendable>(
    help: ArgumentHelp? = nil,
    transform: @escaping @Sendable (String) throws -> Element
  ) where Value == [Element] {
    self.init(
      storage: .valued(
        positional: true, help: help, parser: .transform(transform), initial: nil,
        repeating: true))
  }
}
