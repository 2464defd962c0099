import struct Foundation.Data

extension Data: SQLiteBindable {
  /// Binds the bytes as a BLOB; SQLite copies them.
  ///
  /// For a large payload on a hot path, bind without the copy by lending the bytes for one call:
  /// `try data.withUnsafeBytes { bytes in try insert.run(binding: id, bytes) }`.
  ///
  /// - Parameters:
  ///   - parameter: The statement parameter to bind.
  /// - Throws: `SQLiteError` when the parameter does not exist or the blob is too long.
  public func bind(to parameter: SQLiteParameter) throws {
    try withUnsafeBytes { try parameter.bindBlob($0) }
  }
}
