extension SQLiteDatabase {
  /// Where a database lives.
  public enum Location: Hashable, Sendable {
    /// A file on disk. A new file is created owner-only (`0600`), together with any missing
    /// parent directories (`0700`).
    case path(String)

    /// A private in-memory database that disappears when the connection closes.
    case memory

    /// A private on-disk database in SQLite's temporary directory, deleted when the connection
    /// closes: for data larger than memory that need not survive the process.
    case temporary

    /// The file name handed to `sqlite3_open_v2`.
    var sqliteFileName: String {
      switch self {
      case .path(let path): path
      case .memory: ":memory:"
      case .temporary: ""
      }
    }

    /// The location as errors and logs name it.
    var displayName: String {
      switch self {
      case .path(let path): path
      case .memory: ":memory:"
      case .temporary: "(temporary)"
      }
    }
  }
}
