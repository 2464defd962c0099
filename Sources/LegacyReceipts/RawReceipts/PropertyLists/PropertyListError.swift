/// Why the text of an old-style (NeXTSTEP) property list could not be read, with the byte offset
/// where the problem starts.
public enum PropertyListError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The text ends inside a value.
  case unexpectedEnd(offset: Int)
  /// The byte `found` at `offset` cannot start or continue what is being read; `expected` says
  /// what belongs there.
  case unexpectedCharacter(offset: Int, found: UInt8, expected: String)
  /// The string starting at `offset` is not valid UTF-8.
  case invalidUTF8(offset: Int)
  /// The `\U` escape at `offset` is not four hex digits naming a character.
  case invalidEscape(offset: Int)
  /// The dictionary entry at `offset` repeats the key `key`.
  case duplicateKey(offset: Int, key: String)
  /// The value at `offset` is nested deeper than `limit` levels.
  case nestingTooDeep(offset: Int, limit: Int)
  /// Text other than whitespace and comments follows the top-level value at `offset`.
  case trailingContent(offset: Int)

  /// The byte offset at which the problem starts.
  public var offset: Int {
    switch self {
    case .unexpectedEnd(let offset), .unexpectedCharacter(let offset, _, _),
      .invalidUTF8(let offset), .invalidEscape(let offset), .duplicateKey(let offset, _),
      .nestingTooDeep(let offset, _), .trailingContent(let offset):
      offset
    }
  }

  /// A sentence naming the problem and where it is.
  public var description: String {
    switch self {
    case .unexpectedEnd(let offset):
      "the text ends at byte \(offset) inside a value"
    case .unexpectedCharacter(let offset, let found, let expected):
      "byte \(offset) is \(Self.describe(found)) where \(expected) belongs"
    case .invalidUTF8(let offset):
      "the string at byte \(offset) is not valid UTF-8"
    case .invalidEscape(let offset):
      "the escape at byte \(offset) is not \\U followed by four hex digits naming a character"
    case .duplicateKey(let offset, let key):
      "the entry at byte \(offset) repeats the key '\(key)'"
    case .nestingTooDeep(let offset, let limit):
      "the value at byte \(offset) is nested more than \(limit) levels deep"
    case .trailingContent(let offset):
      "unexpected text follows the property list at byte \(offset)"
    }
  }

  /// A byte as a quoted character when printable, else in hex.
  static func describe(_ byte: UInt8) -> String {
    (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "0x\(hex(byte))"
  }

  private static func hex(_ byte: UInt8) -> String {
    (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
  }
}
