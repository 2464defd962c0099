/// A JSON document held in memory, for the small documents that tools look at as a whole:
/// configuration files, a decoded JWS payload shown to an engineer. Hot paths use
/// ``JSONReader`` instead.
///
/// Numbers keep their literal text so that 64-bit ids and prices survive exactly; objects keep
/// their key order.
public enum JSONValue: Hashable, Sendable {
  /// `null`
  case null
  /// `true` or `false`
  case bool(Bool)
  /// A number, as written in the document.
  case number(String)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object, its members in document order.
  case object([Member])

  /// One key and value of an object.
  public struct Member: Hashable, Sendable {
    /// The key.
    public var key: String
    /// The value.
    public var value: JSONValue

    /// Creates a member.
    ///
    /// - Parameters:
    ///   - key: the key.
    ///   - value: the value.
    public init(_ key: String, _ value: JSONValue) {
      self.key = key
      self.value = value
    }
  }

  /// Parses a complete document.
  ///
  /// - Parameter bytes: UTF-8 JSON.
  /// - Throws: `JSONError` when the bytes are not exactly one JSON value.
  public init(parsing bytes: some Collection<UInt8>) throws(JSONError) {
    let array = Array(bytes)
    let result: Result<JSONValue, JSONError> = array.withUnsafeBytes { buffer in
      var reader = JSONReader(buffer)
      do throws(JSONError) {
        let value = try JSONValue.read(from: &reader)
        try reader.finish()
        return .success(value)
      } catch {
        return .failure(error)
      }
    }
    self = try result.get()
  }

  /// Reads the next value from a reader.
  ///
  /// - Parameter reader: a reader positioned before a value.
  /// - Returns: the value.
  /// - Throws: `JSONError` when the value is malformed.
  public static func read(from reader: inout JSONReader) throws(JSONError) -> JSONValue {
    switch try reader.peekKind() {
    case .null:
      _ = try reader.readNullIfPresent()
      return .null
    case .bool: return .bool(try reader.readBool())
    case .number: return .number(try reader.readNumberText())
    case .string: return .string(try reader.readString())
    case .array:
      var elements: [JSONValue] = []
      try reader.beginArray()
      while try reader.nextElement() { elements.append(try read(from: &reader)) }
      return .array(elements)
    case .object:
      var members: [Member] = []
      try reader.beginObject()
      while let key = try reader.nextKey() {
        let name = key.description
        members.append(Member(name, try read(from: &reader)))
      }
      return .object(members)
    }
  }

  /// The value of the first member with this key, when this is an object.
  ///
  /// - Parameter key: the member's key.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// The string, when this is a string.
  public var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The exact integer, when this is an integral number in `Int64` range.
  public var int64Value: Int64? {
    guard case .number(let text) = self else { return nil }
    return Array(text.utf8).withUnsafeBytes { bytes in
      if case .value(let value) = JSONReader.parseInteger(bytes) { return value }
      return nil
    }
  }

  /// The boolean, when this is `true` or `false`.
  public var boolValue: Bool? {
    if case .bool(let flag) = self { return flag }
    return nil
  }

  /// Writes the value through a writer.
  ///
  /// - Parameter writer: the destination.
  public func write(to writer: inout JSONWriter) {
    switch self {
    case .null: writer.null()
    case .bool(let flag): writer.value(flag)
    case .number(let text): writer.raw(text.utf8)
    case .string(let text): writer.value(text)
    case .array(let elements):
      writer.beginArray()
      for element in elements { element.write(to: &writer) }
      writer.endArray()
    case .object(let members):
      writer.beginObject()
      for member in members {
        writer.key(member.key)
        member.value.write(to: &writer)
      }
      writer.endObject()
    }
  }

  /// The value serialised as JSON text.
  ///
  /// - Parameter style: compact or pretty.
  /// - Returns: the JSON text.
  public func serialized(style: JSONWriter.Style = .compact) -> String {
    var writer = JSONWriter(style: style)
    write(to: &writer)
    return writer.string
  }
}
