/// A named argument without a value: `--verbose`, `-v`, or `--index` / `--no-index`.
///
/// ```swift
/// @Flag(help: "Print every request.") var verbose = false
/// @Flag(inversion: .prefixedNo) var resume = true      // --resume / --no-resume
/// @Flag(name: .short) var verbosity: Int                // -v -v, or -vv, counts 2
/// ```
@propertyWrapper
public struct Flag<Value: Sendable>: Decodable, Sendable {
  var storage: ParsedProperty<Value>

  /// The parsed value.
  public var wrappedValue: Value {
    get { storage.value(of: "@Flag") }
    set { storage = .value(newValue) }
  }

  // The initializers that can run without arguments live in the body rather than in
  // constrained extensions: a command's implicit `init()` only counts a wrapper as default
  // initializable, across modules, when that initializer is declared in the wrapper's body
  // (swiftlang/swift#59505).

  /// A flag that is `true` when present and `false` otherwise.
  ///
  /// - Parameters:
  ///   - name: The flag's names; the kebab-case property name by default.
  ///   - help: The flag's help text.
  public init(name: NameSpecification = .long, help: ArgumentHelp? = nil) where Value == Bool {
    self.init(
      names: name, inversion: nil, help: help, initial: false, repeating: false,
      update: { _, _ in true })
  }

  /// A flag that counts its occurrences: `-v -v` and `-vv` both give 2, none gives 0.
  ///
  /// - Parameters:
  ///   - name: The flag's names; the kebab-case property name by default.
  ///   - help: The flag's help text.
  public init(name: NameSpecification = .long, help: ArgumentHelp? = nil) where Value == Int {
    self.init(
      names: name, inversion: nil, help: help, initial: 0, repeating: true,
      update: { _, count in (count as? Int ?? 0) + 1 })
  }

  init(storage: ParsedProperty<Value>) {
    self.storage = storage
  }
}

extension Flag {
  /// Takes the parsed value from the parser's decoder.
  ///
  /// - Parameter decoder: The parser's decoder; no other decoder can supply flag values.
  /// - Throws: An error naming the property when the decoder is not the parser's.
  public init(from decoder: any Decoder) throws {
    self.init(storage: try ParsedProperty(from: decoder))
  }

  /// The storage of a flag whose occurrences `update` folds into its value.
  init(
    names: NameSpecification,
    inversion: FlagInversion?,
    help: ArgumentHelp?,
    initial: Value?,
    repeating: Bool,
    update: @escaping ArgumentDefinition.PresenceUpdate
  ) {
    self.init(
      storage: .definition { key in
        let help = help ?? ArgumentHelp()
        let (positive, negative) =
          (inversion?.names(inverting: names.names(for: key)))
          ?? (names.names(for: key), [])
        // An inverted flag's default is shown as the spelling that gives it.
        let defaultName = (initial as? Bool).flatMap {
          ArgumentName.preferred(in: $0 ? positive : negative)
        }
        return [
          ArgumentDefinition(
            kind: .flag(update),
            key: key,
            names: positive,
            negatedNames: negative,
            help: help,
            valueName: help.valueName ?? key.name.convertedToKebabCase(),
            isRepeating: repeating,
            initial: initial,
            defaultDescription: inversion == nil ? nil : defaultName?.synopsis
          )
        ]
      })
  }
}

extension Flag: ArgumentDefinitionProvider {
  func argumentDefinitions(for key: InputKey) -> [ArgumentDefinition] {
    storage.definitions(for: key)
  }
}

// MARK: - Boolean flags

extension Flag where Value == Bool {
  /// A flag that is `true` when present.
  ///
  /// - Parameters:
  ///   - wrappedValue: The value when absent; only `false` makes sense without an inversion.
  ///   - name: The flag's names; the kebab-case property name by default.
  ///   - help: The flag's help text.
  public init(wrappedValue: Bool, name: NameSpecification = .long, help: ArgumentHelp? = nil) {
    self.init(
      names: name, inversion: nil, help: help, initial: wrappedValue, repeating: false,
      update: { _, _ in true })
  }

  /// A flag with an opposite, such as `--index` and `--no-index`; the last one given wins.
  ///
  /// - Parameters:
  ///   - wrappedValue: The value when neither spelling is given, shown in help.
  ///   - name: The flag's names; the kebab-case property name by default.
  ///   - inversion: How the opposite is spelled.
  ///   - help: The flag's help text.
  public init(
    wrappedValue: Bool,
    name: NameSpecification = .long,
    inversion: FlagInversion,
    help: ArgumentHelp? = nil
  ) {
    self.init(
      names: name, inversion: inversion, help: help, initial: wrappedValue, repeating: false,
      update: { negated, _ in !negated })
  }

  /// A flag with an opposite where one of the two spellings must be given.
  ///
  /// - Parameters:
  ///   - name: The flag's names; the kebab-case property name by default.
  ///   - inversion: How the opposite is spelled.
  ///   - help: The flag's help text.
  public init(
    name: NameSpecification = .long,
    inversion: FlagInversion,
    help: ArgumentHelp? = nil
  ) {
    self.init(
      names: name, inversion: inversion, help: help, initial: nil, repeating: false,
      update: { negated, _ in !negated })
  }
}
