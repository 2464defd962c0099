import JSON

/// A value of the store's recipe.
public enum RecipeValue: Hashable, Sendable {
  /// A path or text.
  case text(String)
  /// Several paths.
  case list([String])
  /// A whole number.
  case number(Int)
  /// On or off.
  case flag(Bool)

  /// The value as JSON text, as the store keeps it.
  public var json: String {
    var writer = JSONWriter()
    switch self {
    case .text(let text): writer.value(text)
    case .list(let items):
      writer.beginArray()
      for item in items { writer.value(item) }
      writer.endArray()
    case .number(let number): writer.value(Int64(number))
    case .flag(let flag): writer.value(flag)
    }
    return writer.string
  }

  /// Reads a stored value back; `nil` when the text is not one (a store altered by hand).
  ///
  /// - Parameter json: what ``json`` wrote.
  public init?(json: String) {
    guard let value = try? JSONValue(parsing: Array(json.utf8)) else { return nil }
    switch value {
    case .string(let text): self = .text(text)
    case .array(let items): self = .list(items.compactMap(\.stringValue))
    case .bool(let flag): self = .flag(flag)
    default:
      guard let number = value.int64Value, let int = Int(exactly: number) else { return nil }
      self = .number(int)
    }
  }

  /// The value as text, when it is one.
  public var text: String? {
    if case .text(let text) = self { return text }
    return nil
  }

  /// The value as a list of paths (a single text is a list of one).
  public var list: [String]? {
    switch self {
    case .list(let items): return items
    case .text(let text): return [text]
    default: return nil
    }
  }

  /// The value as a number, when it is one.
  public var number: Int? {
    if case .number(let number) = self { return number }
    return nil
  }

  /// The value as on or off, when it is one.
  public var flag: Bool? {
    if case .flag(let flag) = self { return flag }
    return nil
  }

  /// The value as people read it: paths joined with commas, `on`/`off`.
  public var display: String {
    switch self {
    case .text(let text): return text
    case .list(let items): return items.joined(separator: ", ")
    case .number(let number): return String(number)
    case .flag(let flag): return flag ? "on" : "off"
    }
  }
}
