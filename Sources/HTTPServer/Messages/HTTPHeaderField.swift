/// One header field line: a name and its value.
public struct HTTPHeaderField: Hashable, Sendable {
  /// The field name as it was received or set, in its original case.
  public var name: String
  /// The field value without leading or trailing whitespace.
  public var value: String

  /// Creates a header field.
  ///
  /// - Parameters:
  ///   - name: The field name, a token such as `Content-Type`.
  ///   - value: The field value.
  public init(name: String, value: String) {
    self.name = name
    self.value = value
  }
}
