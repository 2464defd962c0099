/// A SQLite result code, primary or extended, as returned by libsqlite3.
///
/// Connections are opened with extended result codes switched on, so a failed statement reports
/// `SQLITE_CONSTRAINT_UNIQUE` rather than just `SQLITE_CONSTRAINT`. Compare ``primary`` with the
/// primary constants to handle a whole family (`error.code.primary == .busy`), or compare the
/// code itself with an extended constant (`error.code == .constraintUnique`) to be specific.
/// The type is a struct rather than an enum so that codes added by a newer libsqlite3 survive.
public struct SQLiteResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The integer code, exactly as libsqlite3 returned it.
  public let rawValue: Int32

  /// Wraps an integer result code.
  ///
  /// - Parameters:
  ///   - rawValue: A primary or extended result code from libsqlite3.
  public init(rawValue: Int32) {
    self.rawValue = rawValue
  }

  /// The primary code of this code's family: the low eight bits, per SQLite's definition.
  public var primary: SQLiteResultCode {
    SQLiteResultCode(rawValue: rawValue & 0xFF)
  }

  /// Whether this code is an extended code rather than a primary one.
  public var isExtended: Bool {
    rawValue > 0xFF
  }

  /// The C name of the code, such as `SQLITE_CONSTRAINT_UNIQUE`.
  ///
  /// A code unknown to this build is named after its primary family with the raw number, so a
  /// log line is still useful when a newer libsqlite3 invents a code.
  public var name: String {
    if let known = Self.knownName(rawValue) {
      return known
    }
    if isExtended, let family = Self.knownName(primary.rawValue) {
      return "\(family) (extended code \(rawValue))"
    }
    return "SQLite result code \(rawValue)"
  }

  /// The code's C name; see ``name``.
  public var description: String {
    name
  }

  // MARK: - Primary codes

  /// `SQLITE_OK`: success.
  public static let ok = SQLiteResultCode(rawValue: 0)
  /// `SQLITE_ERROR`: a generic error, usually an SQL error such as a missing table.
  public static let error = SQLiteResultCode(rawValue: 1)
  /// `SQLITE_INTERNAL`: a bug inside SQLite.
  public static let `internal` = SQLiteResultCode(rawValue: 2)
  /// `SQLITE_PERM`: the operating system refused access.
  public static let permission = SQLiteResultCode(rawValue: 3)
  /// `SQLITE_ABORT`: an operation was aborted, for example by a rollback.
  public static let abort = SQLiteResultCode(rawValue: 4)
  /// `SQLITE_BUSY`: another connection holds a lock the operation needs.
  public static let busy = SQLiteResultCode(rawValue: 5)
  /// `SQLITE_LOCKED`: a conflict inside this same connection or shared cache.
  public static let locked = SQLiteResultCode(rawValue: 6)
  /// `SQLITE_NOMEM`: SQLite could not allocate memory.
  public static let noMemory = SQLiteResultCode(rawValue: 7)
  /// `SQLITE_READONLY`: a write was attempted on a read-only database.
  public static let readOnly = SQLiteResultCode(rawValue: 8)
  /// `SQLITE_INTERRUPT`: the operation was interrupted.
  public static let interrupt = SQLiteResultCode(rawValue: 9)
  /// `SQLITE_IOERR`: the operating system reported an I/O error.
  public static let ioError = SQLiteResultCode(rawValue: 10)
  /// `SQLITE_CORRUPT`: the database file is malformed.
  public static let corrupt = SQLiteResultCode(rawValue: 11)
  /// `SQLITE_FULL`: the disk (or the temporary directory) is full.
  public static let full = SQLiteResultCode(rawValue: 13)
  /// `SQLITE_CANTOPEN`: the file could not be opened.
  public static let cantOpen = SQLiteResultCode(rawValue: 14)
  /// `SQLITE_PROTOCOL`: the WAL locking protocol failed, usually a transient race.
  public static let `protocol` = SQLiteResultCode(rawValue: 15)
  /// `SQLITE_SCHEMA`: the schema changed under a prepared statement.
  public static let schema = SQLiteResultCode(rawValue: 17)
  /// `SQLITE_TOOBIG`: a string or blob exceeds SQLite's size limit.
  public static let tooBig = SQLiteResultCode(rawValue: 18)
  /// `SQLITE_CONSTRAINT`: a constraint (unique, not null, foreign key, check) was violated.
  public static let constraint = SQLiteResultCode(rawValue: 19)
  /// `SQLITE_MISMATCH`: a value has the wrong type, for example NULL where a value is required.
  public static let mismatch = SQLiteResultCode(rawValue: 20)
  /// `SQLITE_MISUSE`: the library was used incorrectly, for example a finalised statement.
  public static let misuse = SQLiteResultCode(rawValue: 21)
  /// `SQLITE_RANGE`: a parameter index or name does not exist in the statement.
  public static let range = SQLiteResultCode(rawValue: 25)
  /// `SQLITE_NOTADB`: the file is not a SQLite database.
  public static let notADatabase = SQLiteResultCode(rawValue: 26)
  /// `SQLITE_ROW`: a step produced a row.
  public static let row = SQLiteResultCode(rawValue: 100)
  /// `SQLITE_DONE`: a step finished the statement.
  public static let done = SQLiteResultCode(rawValue: 101)

  // MARK: - Extended codes worth naming

  /// `SQLITE_BUSY_SNAPSHOT`: a WAL read snapshot became stale before it could write.
  public static let busySnapshot = SQLiteResultCode(rawValue: 517)
  /// `SQLITE_CANTOPEN_ISDIR`: the path names a directory.
  public static let cantOpenIsDirectory = SQLiteResultCode(rawValue: 526)
  /// `SQLITE_CONSTRAINT_CHECK`: a `CHECK` constraint failed.
  public static let constraintCheck = SQLiteResultCode(rawValue: 275)
  /// `SQLITE_CONSTRAINT_FOREIGNKEY`: a foreign key constraint failed.
  public static let constraintForeignKey = SQLiteResultCode(rawValue: 787)
  /// `SQLITE_CONSTRAINT_NOTNULL`: a `NOT NULL` constraint failed.
  public static let constraintNotNull = SQLiteResultCode(rawValue: 1299)
  /// `SQLITE_CONSTRAINT_PRIMARYKEY`: a primary key was duplicated.
  public static let constraintPrimaryKey = SQLiteResultCode(rawValue: 1555)
  /// `SQLITE_CONSTRAINT_UNIQUE`: a `UNIQUE` constraint failed.
  public static let constraintUnique = SQLiteResultCode(rawValue: 2067)
  /// `SQLITE_CONSTRAINT_DATATYPE`: a value does not fit the column type of a `STRICT` table.
  public static let constraintDataType = SQLiteResultCode(rawValue: 3091)
  /// `SQLITE_READONLY_DBMOVED`: the database file was moved or deleted while open.
  public static let readOnlyDatabaseMoved = SQLiteResultCode(rawValue: 1032)

  // MARK: - Names

  // Every code defined by the sqlite3.h of SQLite 3.40, so logs carry the exact C name.
  private static func knownName(_ code: Int32) -> String? {
    switch code {
    case 0: "SQLITE_OK"
    case 1: "SQLITE_ERROR"
    case 2: "SQLITE_INTERNAL"
    case 3: "SQLITE_PERM"
    case 4: "SQLITE_ABORT"
    case 5: "SQLITE_BUSY"
    case 6: "SQLITE_LOCKED"
    case 7: "SQLITE_NOMEM"
    case 8: "SQLITE_READONLY"
    case 9: "SQLITE_INTERRUPT"
    case 10: "SQLITE_IOERR"
    case 11: "SQLITE_CORRUPT"
    case 12: "SQLITE_NOTFOUND"
    case 13: "SQLITE_FULL"
    case 14: "SQLITE_CANTOPEN"
    case 15: "SQLITE_PROTOCOL"
    case 16: "SQLITE_EMPTY"
    case 17: "SQLITE_SCHEMA"
    case 18: "SQLITE_TOOBIG"
    case 19: "SQLITE_CONSTRAINT"
    case 20: "SQLITE_MISMATCH"
    case 21: "SQLITE_MISUSE"
    case 22: "SQLITE_NOLFS"
    case 23: "SQLITE_AUTH"
    case 24: "SQLITE_FORMAT"
    case 25: "SQLITE_RANGE"
    case 26: "SQLITE_NOTADB"
    case 27: "SQLITE_NOTICE"
    case 28: "SQLITE_WARNING"
    case 100: "SQLITE_ROW"
    case 101: "SQLITE_DONE"
    case 256: "SQLITE_OK_LOAD_PERMANENTLY"
    case 257: "SQLITE_ERROR_MISSING_COLLSEQ"
    case 261: "SQLITE_BUSY_RECOVERY"
    case 262: "SQLITE_LOCKED_SHAREDCACHE"
    case 264: "SQLITE_READONLY_RECOVERY"
    case 266: "SQLITE_IOERR_READ"
    case 267: "SQLITE_CORRUPT_VTAB"
    case 270: "SQLITE_CANTOPEN_NOTEMPDIR"
    case 275: "SQLITE_CONSTRAINT_CHECK"
    case 279: "SQLITE_AUTH_USER"
    case 283: "SQLITE_NOTICE_RECOVER_WAL"
    case 284: "SQLITE_WARNING_AUTOINDEX"
    case 512: "SQLITE_OK_SYMLINK"
    case 513: "SQLITE_ERROR_RETRY"
    case 516: "SQLITE_ABORT_ROLLBACK"
    case 517: "SQLITE_BUSY_SNAPSHOT"
    case 518: "SQLITE_LOCKED_VTAB"
    case 520: "SQLITE_READONLY_CANTLOCK"
    case 522: "SQLITE_IOERR_SHORT_READ"
    case 523: "SQLITE_CORRUPT_SEQUENCE"
    case 526: "SQLITE_CANTOPEN_ISDIR"
    case 531: "SQLITE_CONSTRAINT_COMMITHOOK"
    case 539: "SQLITE_NOTICE_RECOVER_ROLLBACK"
    case 769: "SQLITE_ERROR_SNAPSHOT"
    case 773: "SQLITE_BUSY_TIMEOUT"
    case 776: "SQLITE_READONLY_ROLLBACK"
    case 778: "SQLITE_IOERR_WRITE"
    case 779: "SQLITE_CORRUPT_INDEX"
    case 782: "SQLITE_CANTOPEN_FULLPATH"
    case 787: "SQLITE_CONSTRAINT_FOREIGNKEY"
    case 1032: "SQLITE_READONLY_DBMOVED"
    case 1034: "SQLITE_IOERR_FSYNC"
    case 1038: "SQLITE_CANTOPEN_CONVPATH"
    case 1043: "SQLITE_CONSTRAINT_FUNCTION"
    case 1288: "SQLITE_READONLY_CANTINIT"
    case 1290: "SQLITE_IOERR_DIR_FSYNC"
    case 1294: "SQLITE_CANTOPEN_DIRTYWAL"
    case 1299: "SQLITE_CONSTRAINT_NOTNULL"
    case 1544: "SQLITE_READONLY_DIRECTORY"
    case 1546: "SQLITE_IOERR_TRUNCATE"
    case 1550: "SQLITE_CANTOPEN_SYMLINK"
    case 1555: "SQLITE_CONSTRAINT_PRIMARYKEY"
    case 1802: "SQLITE_IOERR_FSTAT"
    case 1811: "SQLITE_CONSTRAINT_TRIGGER"
    case 2058: "SQLITE_IOERR_UNLOCK"
    case 2067: "SQLITE_CONSTRAINT_UNIQUE"
    case 2314: "SQLITE_IOERR_RDLOCK"
    case 2323: "SQLITE_CONSTRAINT_VTAB"
    case 2570: "SQLITE_IOERR_DELETE"
    case 2579: "SQLITE_CONSTRAINT_ROWID"
    case 2826: "SQLITE_IOERR_BLOCKED"
    case 2835: "SQLITE_CONSTRAINT_PINNED"
    case 3082: "SQLITE_IOERR_NOMEM"
    case 3091: "SQLITE_CONSTRAINT_DATATYPE"
    case 3338: "SQLITE_IOERR_ACCESS"
    case 3594: "SQLITE_IOERR_CHECKRESERVEDLOCK"
    case 3850: "SQLITE_IOERR_LOCK"
    case 4106: "SQLITE_IOERR_CLOSE"
    case 4362: "SQLITE_IOERR_DIR_CLOSE"
    case 4618: "SQLITE_IOERR_SHMOPEN"
    case 4874: "SQLITE_IOERR_SHMSIZE"
    case 5130: "SQLITE_IOERR_SHMLOCK"
    case 5386: "SQLITE_IOERR_SHMMAP"
    case 5642: "SQLITE_IOERR_SEEK"
    case 5898: "SQLITE_IOERR_DELETE_NOENT"
    case 6154: "SQLITE_IOERR_MMAP"
    case 6410: "SQLITE_IOERR_GETTEMPPATH"
    case 6666: "SQLITE_IOERR_CONVPATH"
    case 6922: "SQLITE_IOERR_VNODE"
    case 7178: "SQLITE_IOERR_AUTH"
    case 7434: "SQLITE_IOERR_BEGIN_ATOMIC"
    case 7690: "SQLITE_IOERR_COMMIT_ATOMIC"
    case 7946: "SQLITE_IOERR_ROLLBACK_ATOMIC"
    case 8202: "SQLITE_IOERR_DATA"
    case 8458: "SQLITE_IOERR_CORRUPTFS"
    default: nil
    }
  }
}
