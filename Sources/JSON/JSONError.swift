/// Why a JSON document could not be read, and where.
///
/// Offsets are byte offsets from the start of the buffer the reader was given, so a caller that
/// reads one line of a larger file adds the line's own offset to point at the file's byte.
public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The category of a JSON failure.
  public enum Kind: Hashable, Sendable {
    /// The input ended inside a value.
    case unexpectedEnd
    /// A byte that cannot appear here; `expected` says what could have.
    case unexpectedByte(UInt8, expected: String)
    /// A string holds bytes that are not UTF-8.
    case invalidUTF8
    /// A backslash escape that JSON does not define.
    case invalidEscape
    /// A raw control character (below U+0020) inside a string.
    case controlCharacterInString
    /// A number that does not follow JSON's grammar.
    case invalidNumber
    /// A number that is valid JSON but does not fit the requested type.
    case numberOutOfRange(String)
    /// A value of one kind where another was required.
    case typeMismatch(expected: String, found: JSONValueKind)
    /// Containers nested deeper than the reader allows.
    case nestingTooDeep(limit: Int)
    /// Bytes after the end of the top-level value.
    case trailingData
    /// The document is empty or only whitespace.
    case emptyDocument
  }

  /// What went wrong.
  public var kind: Kind
  /// The byte offset at which it went wrong.
  public var offset: Int

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - kind: what went wrong.
  ///   - offset: the byte offset at which it went wrong.
  public init(_ kind: Kind, at offset: Int) {
    self.kind = kind
    self.offset = offset
  }

  /// A short sentence such as `invalid UTF-8 in a string at byte 1234`.
  public var description: String { "\(reason) at byte \(offset)" }

  /// The reason without the position, fit for grouping failures by cause.
  public var reason: String {
    switch kind {
    case .unexpectedEnd: return "truncated JSON (input ended inside a value)"
    case .unexpectedByte(let byte, let expected):
      return "unexpected \(JSONError.describe(byte)), expected \(expected)"
    case .invalidUTF8: return "invalid UTF-8 in a string"
    case .invalidEscape: return "invalid escape sequence in a string"
    case .controlCharacterInString: return "unescaped control character in a string"
    case .invalidNumber: return "malformed number"
    case .numberOutOfRange(let target): return "number does not fit \(target)"
    case .typeMismatch(let expected, let found): return "expected \(expected), found \(found)"
    case .nestingTooDeep(let limit): return "nesting deeper than \(limit) levels"
    case .trailingData: return "unexpected data after the JSON value"
    case .emptyDocument: return "empty document"
    }
  }

  private static func describe(_ byte: UInt8) -> String {
    if byte >= 0x21 && byte < 0x7F {
      return "'\(Character(Unicode.Scalar(byte)))'"
    }
    let hex = String(byte, radix: 16, uppercase: true)
    return "byte 0x" + (hex.count == 1 ? "0" + hex : hex)
  }
}
