extension SQLiteDatabase {
  /// How a top-level transaction takes its locks (`BEGIN DEFERRED / IMMEDIATE / EXCLUSIVE`).
  ///
  /// Only the outermost transaction has a kind; a nested one is a `SAVEPOINT` inside it.
  public enum TransactionKind: Hashable, Sendable {
    /// Takes no lock until the first read, and the write lock only at the first write. A read
    /// transaction that later writes can fail with `SQLITE_BUSY_SNAPSHOT` if another connection
    /// wrote in between, so use `.immediate` for anything that writes.
    case deferred

    /// Takes the write lock at once (waiting up to the busy timeout), so the transaction cannot
    /// fail later for lack of it. The right choice for every transaction that writes.
    case immediate

    /// Like `.immediate` in WAL mode; in other journal modes it also keeps readers out.
    case exclusive

    /// The statement that opens a transaction of this kind.
    var beginStatement: String {
      switch self {
      case .deferred: "BEGIN DEFERRED"
      case .immediate: "BEGIN IMMEDIATE"
      case .exclusive: "BEGIN EXCLUSIVE"
      }
    }
  }
}
