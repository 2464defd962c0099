/// The header fields of a request or response, in order, with case-insensitive lookup.
///
/// Field names compare without regard to ASCII case (RFC 9110 §5.1) but keep the case they were
/// written in. Repeated fields are kept as separate entries in their original order, so nothing a
/// client sent is merged or lost.
public struct HTTPHeaders: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
  /// Every field, in the order received or added.
  public private(set) var fields: [HTTPHeaderField]

  /// Creates headers from fields in order.
  ///
  /// - Parameter fields: The fields, repeated names allowed.
  public init(_ fields: [HTTPHeaderField] = []) {
    self.fields = fields
  }

  /// Creates headers from a literal such as `["Content-Type": "application/json"]`, in order.
  ///
  /// - Parameter elements: Name and value pairs.
  public init(dictionaryLiteral elements: (String, String)...) {
    self.fields = elements.map { HTTPHeaderField(name: $0.0, value: $0.1) }
  }

  // MARK: - Reading

  /// The value of the first field with this name, compared case-insensitively.
  ///
  /// - Parameter name: The field name, in any case.
  /// - Returns: The first matching value, or `nil` when there is none.
  public subscript(name: String) -> String? {
    fields.first { HTTPHeaders.namesMatch($0.name, name) }?.value
  }

  /// The values of every field with this name, in order.
  ///
  /// - Parameter name: The field name, in any case.
  /// - Returns: The matching values; empty when there are none.
  public func values(named name: String) -> [String] {
    fields.filter { HTTPHeaders.namesMatch($0.name, name) }.map(\.value)
  }

  /// Whether at least one field has this name.
  ///
  /// - Parameter name: The field name, in any case.
  /// - Returns: `true` when a field with the name is present.
  public func contains(_ name: String) -> Bool {
    fields.contains { HTTPHeaders.namesMatch($0.name, name) }
  }

  /// Iterates over the fields in order.
  ///
  /// - Returns: An iterator over the fields.
  public func makeIterator() -> IndexingIterator<[HTTPHeaderField]> {
    fields.makeIterator()
  }

  // MARK: - Writing

  /// Appends a field, keeping any existing fields with the same name.
  ///
  /// - Parameters:
  ///   - name: The field name.
  ///   - value: The field value.
  public mutating func add(name: String, value: String) {
    fields.append(HTTPHeaderField(name: name, value: value))
  }

  /// Replaces every field with this name by a single field, added at the end.
  ///
  /// - Parameters:
  ///   - name: The field name, in any case.
  ///   - value: The new value.
  public mutating func replaceOrAdd(name: String, value: String) {
    remove(name: name)
    add(name: name, value: value)
  }

  /// Removes every field with this name.
  ///
  /// - Parameter name: The field name, in any case.
  public mutating func remove(name: String) {
    fields.removeAll { HTTPHeaders.namesMatch($0.name, name) }
  }

  // MARK: - Comparison

  /// Compares two field names byte by byte, folding ASCII letters to lower case.
  static func namesMatch(_ lhs: String, _ rhs: String) -> Bool {
    var left = lhs.utf8.makeIterator()
    var right = rhs.utf8.makeIterator()
    while true {
      switch (left.next(), right.next()) {
      case (nil, nil):
        return true
      case (let a?, let b?) where ASCII.lowercased(a) == ASCII.lowercased(b):
        continue
      default:
        return false
      }
    }
  }
}
