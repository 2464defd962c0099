/// A named count shown after the main progress, such as `429s 3` or `failures 0`.
public struct ProgressCounter: Sendable, Equatable {
  /// The name, as shown.
  public var name: String
  /// The count so far.
  public var value: Int

  /// Creates a counter.
  ///
  /// - Parameters:
  ///   - name: The name, as shown.
  ///   - value: The count so far.
  public init(name: String, value: Int) {
    self.name = name
    self.value = value
  }
}
