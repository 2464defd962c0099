extension RawReceiptSummary {
  /// One labelled line of a summary.
  public struct Field: Hashable, Sendable {
    /// What the value is: `Bundle id`.
    public var label: String
    /// The value, ready to print.
    public var value: String

    /// Creates a field.
    ///
    /// - Parameters:
    ///   - label: What the value is.
    ///   - value: The value, ready to print.
    public init(_ label: String, _ value: String) {
      self.label = label
      self.value = value
    }
  }
}
