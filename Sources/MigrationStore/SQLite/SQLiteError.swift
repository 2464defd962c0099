/// A failure reported by libsqlite3, or by this layer on SQLite's behalf, with its context.
///
/// The error carries what an operator needs at 3 a.m.: the extended result code and its C name,
/// SQLite's own message, the statement that failed (truncated) and the database it ran against.
/// ``description`` prints all of it as a small tree and, for the codes an operator can act on
/// (locked, full, corrupt, not a database, read-only, cannot open), the next step.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
  /// The extended result code; compare `code.primary` to handle a whole family.
  public let code: SQLiteResultCode

  /// SQLite's message (`sqlite3_errmsg`), or this layer's explanation for errors it detects.
  public let message: String

  /// The SQL text that failed, truncated to ``maximumSQLLength`` characters; `nil` when no
  /// statement was involved, such as opening a file.
  public let sql: String?

  /// The database file the connection was using: a path, `:memory:` or `(temporary)`.
  public let databasePath: String

  /// How many characters of SQL an error keeps; a multi-megabyte script is not a log line.
  public static let maximumSQLLength = 300

  /// Creates an error, truncating the SQL text.
  ///
  /// - Parameters:
  ///   - code: The extended result code.
  ///   - message: SQLite's message, or an explanation naming the thing and the reason.
  ///   - sql: The statement that failed, if any.
  ///   - databasePath: The database the connection was using.
  public init(code: SQLiteResultCode, message: String, sql: String?, databasePath: String) {
    self.code = code
    self.message = message
    self.sql = sql.map(Self.truncated)
    self.databasePath = databasePath
  }

  /// What an operator should do about this error, for the codes where there is something to do.
  public var nextStep: String? {
    switch code.primary {
    case .busy, .locked:
      return "the database is locked by another receipt-migrate process — wait for it to finish"
        + " or use another --db"
    case .notADatabase:
      return "not a receipt-migrate database — check the --db path; the file was left untouched"
    case .full:
      return "disk full — free space on the volume holding the database (and its -wal file),"
        + " then re-run; the interrupted transaction was rolled back and nothing committed is lost"
    case .corrupt:
      return "the database file is damaged — restore it from a backup or start over with a"
        + " new --db; do not keep writing to it"
    case .readOnly:
      return "the database cannot be written — check that the file, its -wal and -shm files"
        + " and their directory are writable by this user"
    case .cantOpen:
      return "the file cannot be opened — check that the path is right, that its directory"
        + " exists and is accessible, and that it is not a directory"
    case .ioError:
      return "the operating system reported an I/O error — check the disk and its free space"
    case .permission:
      return "the operating system refused access — check the file's owner and permissions"
    default:
      return nil
    }
  }

  /// The error as a short tree: code and message, then database, statement and next step.
  public var description: String {
    var lines = ["\(code.name): \(message)", "  database: \(databasePath)"]
    if let sql {
      lines.append("  sql: \(sql)")
    }
    if let nextStep {
      lines.append("  next step: \(nextStep)")
    }
    return lines.joined(separator: "\n")
  }

  // MARK: - Helpers

  private static func truncated(_ sql: String) -> String {
    // Collapse the newlines and indentation of multi-line SQL so the error stays one log line.
    let words = sql.split(whereSeparator: { $0.isWhitespace })
    let flat = words.joined(separator: " ")
    guard flat.count > maximumSQLLength else {
      return flat
    }
    return flat.prefix(maximumSQLLength) + "…"
  }
}
