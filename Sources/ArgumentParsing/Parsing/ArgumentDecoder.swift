/// Feeds each property wrapper its parsed value while a command's synthesized
/// `init(from:)` runs.
///
/// The command's `Decodable` conformance asks for every stored property by name; the wrappers
/// ask this decoder for the value parsed for their key, and option groups decode their own
/// properties one key deeper.
struct ArgumentDecoder: Decoder {
  var values: [InputKey: any Sendable]
  var codingPath: [any CodingKey] = []

  var userInfo: [CodingUserInfoKey: Any] { [:] }

  var key: InputKey { InputKey(path: codingPath.map(\.stringValue)) }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(ArgumentKeyedContainer<Key>(decoder: self))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw notAnArgumentProperty()
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    throw notAnArgumentProperty()
  }

  func nested(_ key: any CodingKey) -> ArgumentDecoder {
    ArgumentDecoder(values: values, codingPath: codingPath + [key])
  }

  /// The value the parser stored for this decoder's key.
  func parsedValue<Value>(as valueType: Value.Type) throws -> Value {
    guard let value = values[key] else {
      throw ArgumentDeclarationError(
        message: "the property '\(key)' has no parsed value: it was given a value in init(), "
          + "which hides its declaration; set defaults in the property declaration instead")
    }
    guard let typed = value as? Value else {
      throw ArgumentDeclarationError(
        message: "the property '\(key)' was parsed as \(type(of: value)), not \(Value.self)")
    }
    return typed
  }

  /// What decoding a stored property that no argument wrapper owns throws.
  func notAnArgumentProperty() -> ArgumentDeclarationError {
    ArgumentDeclarationError(
      message: "the stored property '\(key)' is not an @Option, @Flag, @Argument or "
        + "@OptionGroup; make it computed or a 'let' with a value, or leave it out of CodingKeys")
  }
}
