/// SQL `NULL`, for binding where no typed optional is at hand.
///
/// A `nil` literal has no type of its own to bind, so pass `SQLiteNull()`, or a typed optional
/// such as `nil as String?`.
public struct SQLiteNull: SQLiteBindable, Hashable, Sendable {
  /// Creates the NULL value.
  public init() {}

  /// Binds NULL.
  ///
  /// - Parameters:
  ///   - parameter: The statement parameter to bind.
  /// - Throws: `SQLiteError` when the parameter does not exist.
  public func bind(to parameter: SQLiteParameter) throws {
    try parameter.bindNull()
  }
}
