/// The six kinds of JSON value, as seen by peeking at the first byte.
public enum JSONValueKind: String, Hashable, Sendable, CustomStringConvertible {
  /// `{...}`
  case object
  /// `[...]`
  case array
  /// `"..."`
  case string
  /// `-12.5e3`
  case number
  /// `true` or `false`
  case bool
  /// `null`
  case null

  /// The kind's name with an article, for messages: "an object", "a string".
  public var description: String {
    switch self {
    case .object, .array: return "an \(rawValue)"
    case .null: return "null"
    default: return "a \(rawValue)"
    }
  }
}
