/// Includes the arguments of another ``ParsableArguments`` type, such as options shared by
/// several commands.
///
/// ```swift
/// struct StoreOptions: ParsableArguments {
///   @Option(name: .customLong("db"), help: "The migration database.") var databasePath = "migration.sqlite"
/// }
/// struct Ingest: ParsableCommand {
///   @OptionGroup var store: StoreOptions
/// }
/// ```
///
/// The group's `validate()` runs before the command's.
@propertyWrapper
public struct OptionGroup<Value: ParsableArguments>: Decodable, Sendable {
  /// `nil` while the parser discovers the arguments.
  private var value: Value?

  /// Creates the group; its arguments are listed with the command's own.
  public init() {
    value = nil
  }

  /// The parsed group.
  public var wrappedValue: Value {
    get {
      guard let value else {
        // Same programming error as reading an @Option of a command built with init().
        preconditionFailure(
          "@OptionGroup property read before parsing: this command was built with init(); "
            + "build commands with parseAsRoot(_:) to read values")
      }
      return value
    }
    set { value = newValue }
  }

  /// Decodes the group's properties from the parser's decoder and validates them.
  ///
  /// - Parameter decoder: The parser's decoder, keyed by this property's name.
  /// - Throws: What decoding or the group's `validate()` throws.
  public init(from decoder: any Decoder) throws {
    var value = try Value(from: decoder)
    try value.validate()
    self.value = value
  }
}

extension OptionGroup: ArgumentDefinitionProvider {
  func argumentDefinitions(for key: InputKey) -> [ArgumentDefinition] {
    value == nil ? ArgumentDefinition.definitions(of: Value.self, under: key) : []
  }
}
