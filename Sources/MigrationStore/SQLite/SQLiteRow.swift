import CSQLite

/// The current row of a stepping statement, read column by column with typed accessors.
///
/// Reads are strict where SQLite would silently convert: `int64(at:)` on a TEXT or REAL value,
/// or any non-optional read of NULL, throws a `.mismatch` error naming the column, because a
/// stored value quietly becoming 0 or "" is how revenue data goes wrong. `double(at:)` accepts
/// INTEGER values, and the blob readers accept TEXT (its UTF-8 bytes).
///
/// A row is a view, not a copy: it is valid until its statement steps again or is reset. Reading
/// it after that throws a `.misuse` error rather than returning another row's values.
public struct SQLiteRow {
  /// The statement whose current row this is.
  let statement: SQLiteStatement

  /// The statement's position when this row was produced.
  let position: UInt64

  /// The number of columns in the row.
  public var columnCount: Int {
    statement.columnCount
  }

  // MARK: - NULL

  /// Whether the value in a column is NULL.
  ///
  /// - Parameters:
  ///   - column: The 0-based column index.
  /// - Returns: `true` for NULL.
  /// - Throws: `SQLiteError` when the column does not exist or the row is no longer current.
  public func isNull(at column: Int) throws -> Bool {
    try cell(at: column).type == SQLITE_NULL
  }

  // MARK: - Integers

  /// Reads an INTEGER value.
  ///
  /// - Parameters:
  ///   - column: The 0-based column index.
  /// - Returns: The integer.
  /// - Throws: `SQLiteError` with `.mismatch` when the value is NULL or not an INTEGER, or when
  ///   the column does not exist or the row is no longer current.
  public func int64(at column: Int) throws -> Int64 {
    let cell = try cell(at: column, accepting: SQLITE_INTEGER)
    return sqlite3_column_int64(cell.handle, cell.index)
  }

  /// Reads an INTEGER value, or `nil` for NULL.
  ///
  /// - Parameters:
  ///   - column: The 0-based column index.
  /// - Returns: The integer, or `nil`.
  /// - Throws: `SQLiteError` with `.mismatch` when the value is neither NULL nor an INTEGER, or
  ///   when the column does not exist or the row is no longer current.
  public func optionalInt64(at column: Int) throws -> Int64? {
    try isNull(at: column) ? nil : int64(at: column)
  }

  /// Reads an INTEGER value as `Int`.
  ///
  /// - Parameters:
  ///   - column: The 0-based column index.
  /// - Returns: The integer.
  /// - Throws: `SQLiteError` with `.mismatch` when the value is NULL, not an INTEGER or does not
  ///   fit `Int`, or when the column does not exist or the row is no longer current.
  public func int(at column: Int) throws -> Int {
    let value = try int64(at: column)
    guard let result = Int(exactly: value) else {
      throw mismatch(column, "holds \(value), which does not fit this platform's Int")
    }
    return result
  }

  /// Reads an INTEGER value as `Int`, or `nil` for NULL.
  ///
  /// - Parameters:
  ///   - column: The 0-based column index.
  /// - Returns: The integer, or `nil`.
  /// - Throws: `SQLiteError` with `.mismatch` when the value is neither NULL nor an INTEGER that
  ///   fits `Int`, or when the column does not exist or the row is no longer current.
  public func optionalInt(at column: Int) throws -> Int? {
    try isNull(at: column) ? nil : int(at: column)
  }

  /// Reads a boolean stored as the INTEGER 0 or 1.
  ///
  /// - Parameters:
  ///   - column: The 0-based column index.
  /// - Returns: `false` for 0, `true` for 1.
  /// - Throws: `SQLiteError` with `.mismatch` when the value is NULL or anything but 0 or 1, or
  ///   when the column does not exist or the row is no longer current.
  public func bool(at column: Int) throws -> Bool {
    switch try int64(at: column) {
    case 0: return false
    case 1: return true
    case let other: throw mismatch(column, "holds \(other), not a boolean 0 or 1")
    }
  }

  /// Reads a boolean stored as the INTEGER 0 or 1, or `nil` for NULL.
  ///
  /// - Parameters:
  ///   - column: The 0-based column index.
  /// - Returns: `false` for 0, `true` for 1, `nil` for NULL.
  /// - Throws: `SQLiteError` with `.mismatch` for any other value, or when the column does not
  ///   exist or the row is no longer current.
  public func optionalBool(at column: Int) throws -> Bool? {
    try isNull(at: column) ? nil : bool(at: column)
  }

  // MARK: - Floating point

  /// Reads a REAL value; an INTEGER value is converted.
  ///
  /// - Parameters:
  ///   - column: The 0-based column index.
  /// - Returns: The number.
  /// - Throws: `SQLiteError` with `.mismatch` when the value is NULL, TEXT or BLOB, or when the
  ///   column does not exist or the row is no longer current.
  public func double(at column: Int) throws -> Double {
    let cell = try cell(at: column, accepting: SQLITE_FLOAT, or: SQLITE_INTEGER)
    return sqlite3_column_double(cell.handle, cell.index)
  }

  /// Reads a REAL value (an INTEGER value is converted), or `nil` for NULL.
  ///
  /// - Parameters:
  ///   - column: The 0-based column index.
  /// - Returns: The number, or `nil`.
  /// - Throws: `SQLiteError` with `.mismatch` when the value is TEXT or BLOB, or when the column
  ///   does not exist or the row is no longer current.
  public func optionalDouble(at column: Int) throws -> Double? {
    try isNull(at: column) ? nil : double(at: column)
  }

  // MARK: - Text

  /// Reads a TEXT value.
  ///
  /// - Parameters:
  ///   - column: The 0-based column index.
  /// - Returns: The text, decoded from UTF-8 (invalid bytes become U+FFFD).
  /// - Throws: `SQLiteError` with `.mismatch` when the value is NULL or not TEXT, or when the
  ///   column does not exist or the row is no longer current.
  public func string(at column: Int) throws -> String {
    let cell = try cell(at: column, accepting: SQLITE_TEXT)
    // sqlite3_column_text must come before sqlite3_column_bytes: the text call may convert the
    // value, and the byte count is only meaningful for the converted form.
    guard let text = sqlite3_column_text(cell.handle, cell.index) else {
      return ""
    }
    let count = Int(sqlite3_column_bytes(cell.handle, cell.index))
    return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
  }

  /// Reads a TEXT value, or `nil` for NULL.
  ///
  /// - Parameters:
  ///   - column: The 0-based column index.
  /// - Returns: The text, or `nil`.
  /// - Throws: `SQLiteError` with `.mismatch` when the value is neither NULL nor TEXT, or when the
  ///   column does not exist or the row is no longer current.
  public func optionalString(at column: Int) throws -> String? {
    try isNull(at: column) ? nil : string(at: column)
  }

  // MARK: - Blobs

  /// Reads a BLOB (or the UTF-8 bytes of a TEXT value) into a new array.
  ///
  /// - Parameters:
  ///   - column: The 0-based column index.
  /// - Returns: The bytes; an empty BLOB gives an empty array.
  /// - Throws: `SQLiteError` with `.mismatch` when the value is NULL or a number, or when the
  ///   column does not exist or the row is no longer current.
  public func blob(at column: Int) throws -> [UInt8] {
    try withUnsafeBlob(at: column) { [UInt8]($0) }
  }

  /// Reads a BLOB (or the UTF-8 bytes of a TEXT value) into a new array, or `nil` for NULL.
  ///
  /// - Parameters:
  ///   - column: The 0-based column index.
  /// - Returns: The bytes, or `nil`.
  /// - Throws: `SQLiteError` with `.mismatch` when the value is a number, or when the column does
  ///   not exist or the row is no longer current.
  public func optionalBlob(at column: Int) throws -> [UInt8]? {
    try isNull(at: column) ? nil : blob(at: column)
  }

  /// Lends the bytes of a BLOB (or TEXT) value straight from SQLite's buffer, without a copy.
  ///
  /// The zero-copy read for large payloads, such as a stored response handed to a parser.
  ///
  /// - Parameters:
  ///   - column: The 0-based column index.
  ///   - body: Reads the bytes; they are only valid during the call.
  /// - Returns: What `body` returns.
  /// - Throws: `SQLiteError` with `.mismatch` when the value is NULL or a number, or when the
  ///   column does not exist or the row is no longer current; or what `body` throws.
  public func withUnsafeBlob<Result>(
    at column: Int, _ body: (UnsafeRawBufferPointer) throws -> Result
  ) throws -> Result {
    let cell = try cell(at: column, accepting: SQLITE_BLOB, or: SQLITE_TEXT)
    // As with text, the pointer first, then the size of what it points to.
    let start = sqlite3_column_blob(cell.handle, cell.index)
    let count = Int(sqlite3_column_bytes(cell.handle, cell.index))
    return try body(UnsafeRawBufferPointer(start: start, count: start == nil ? 0 : count))
  }

  // MARK: - Cells

  /// A checked reference to one value of the current row.
  private struct Cell {
    let handle: OpaquePointer
    let index: Int32
    let type: Int32
  }

  private func cell(at column: Int) throws -> Cell {
    let handle = try statement.checkedHandle()
    guard statement.position == position else {
      throw statement.failure(
        SQLITE_MISUSE,
        message: "a row was read after its statement moved on; read each row's values inside"
          + " the loop that produced it")
    }
    let count = sqlite3_column_count(handle)
    guard column >= 0, column < Int(count) else {
      throw statement.failure(
        SQLITE_RANGE,
        message: "there is no column \(column); the valid indexes are 0 up to \(count) exclusive")
    }
    let index = Int32(column)
    return Cell(handle: handle, index: index, type: sqlite3_column_type(handle, index))
  }

  // Two fixed parameters rather than a variadic list: a variadic call allocates an array, and
  // this runs for every value read.
  private func cell(
    at column: Int, accepting type: Int32, or alternative: Int32? = nil
  ) throws -> Cell {
    let cell = try cell(at: column)
    guard cell.type == type || cell.type == alternative else {
      let wanted = [type, alternative].compactMap { $0 }.map(Self.typeName).joined(
        separator: " or ")
      let advice = cell.type == SQLITE_NULL ? "; read it with the optional accessor" : ""
      throw mismatch(column, "holds \(Self.typeName(cell.type)), not \(wanted)\(advice)")
    }
    return cell
  }

  private func mismatch(_ column: Int, _ reason: String) -> SQLiteError {
    let name = statement.columnName(at: column).map { " (\($0))" } ?? ""
    return statement.failure(SQLITE_MISMATCH, message: "column \(column)\(name) \(reason)")
  }

  private static func typeName(_ type: Int32) -> String {
    switch type {
    case SQLITE_INTEGER: "INTEGER"
    case SQLITE_FLOAT: "REAL"
    case SQLITE_TEXT: "TEXT"
    case SQLITE_BLOB: "BLOB"
    case SQLITE_NULL: "NULL"
    default: "type \(type)"
    }
  }
}

@available(*, unavailable, message: "a statement is confined to its connection's thread")
extension SQLiteRow: Sendable {}
