extension SQLiteDatabase {
  /// Whether a connection may write, and whether opening may create the file.
  public enum AccessMode: Hashable, Sendable {
    /// Read only; the file must already exist. Journal mode is left as the file records it.
    case readOnly

    /// Read and write, creating the file (owner-only) and its parent directories if missing.
    case readWriteCreate
  }
}
