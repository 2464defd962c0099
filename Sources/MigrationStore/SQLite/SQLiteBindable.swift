/// A value that can be bound to a parameter of an SQL statement.
///
/// The layer provides conformances for `Int64`, `Int`, `Double`, `Bool` (0 or 1), `String`,
/// `[UInt8]`, `Data`, `UnsafeRawBufferPointer` (blobs), `SQLiteNull` and `Optional` of any of
/// them (`nil` binds NULL). Higher layers conform their own types, such as a timestamp, by
/// binding one of those primitives:
///
/// ```swift
/// extension Timestamp: SQLiteBindable {
///   public func bind(to parameter: SQLiteParameter) throws {
///     try parameter.bindInt64(unixMilliseconds)
///   }
/// }
/// ```
public protocol SQLiteBindable {
  /// Binds this value to `parameter`.
  ///
  /// - Parameters:
  ///   - parameter: The statement parameter to bind; call exactly one of its `bind` methods.
  /// - Throws: `SQLiteError` when SQLite rejects the value, for example one larger than its
  ///   length limit.
  func bind(to parameter: SQLiteParameter) throws
}
