extension DistinguishedName {
  /// One attribute of a distinguished name, such as `CN=Example Root`.
  public struct Attribute: Sendable, Hashable {
    /// OpenSSL's short name (`CN`, `O`, `OU`, `C`, `L`, `ST`) or a dotted object identifier.
    public var type: String

    /// The value, as UTF-8 text.
    public var value: String

    /// An attribute of the given type and value.
    ///
    /// - Parameters:
    ///   - type: A short name such as `CN`, or a dotted object identifier.
    ///   - value: The value.
    public init(type: String, value: String) {
      self.type = type
      self.value = value
    }
  }
}
