#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Creates database files readable by their owner only, before SQLite ever sees the path.
///
/// The store holds revenue data, so a new database must be `0600` and a directory made for it
/// `0700`. SQLite creates a missing file with `0644 & ~umask`, and tightening the umask around
/// `sqlite3_open_v2` would not do: the umask is per process, so every other thread creating a
/// file at that moment would silently get the wrong mode. Creating the empty file ourselves with
/// `open(O_CREAT | O_EXCL, 0600)` is local and race-free, and SQLite treats an empty file as a
/// new database. SQLite then gives the `-wal` and `-shm` files the main file's mode, so they are
/// owner-only too. An existing file is left as it is: its mode is its owner's decision.
enum OwnerOnlyFiles {
  /// The mode of a database file this layer creates.
  static let fileMode: mode_t = 0o600

  /// The mode of a directory this layer creates to hold a database.
  static let directoryMode: mode_t = 0o700

  /// Makes sure the file at `path` exists, creating it and its missing parent directories with
  /// owner-only modes.
  ///
  /// - Throws: `SQLiteError` with `.cantOpen` naming the path, the system's reason and the fix.
  static func createIfMissing(_ path: String) throws {
    try createParentDirectories(of: path)
    let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
    guard descriptor >= 0 else {
      let code = errno
      if code == EEXIST {
        return
      }
      throw failure(path, "cannot create the database file", code)
    }
    defer { close(descriptor) }
    // open() applies the umask; set the exact mode so a permissive or odd umask cannot matter.
    guard fchmod(descriptor, fileMode) == 0 else {
      throw failure(path, "cannot set mode 0600 on the new database file", errno)
    }
  }

  // MARK: - Directories

  private static func createParentDirectories(of path: String) throws {
    let components = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
    var directory = ""
    for (position, component) in components.enumerated() {
      directory += position == 0 ? String(component) : "/" + component
      // An empty component is the root of an absolute path or a doubled slash: nothing to make.
      guard !component.isEmpty, component != "." else {
        continue
      }
      try createDirectoryIfMissing(directory, for: path)
    }
  }

  private static func createDirectoryIfMissing(_ directory: String, for path: String) throws {
    if mkdir(directory, directoryMode) == 0 {
      guard chmod(directory, directoryMode) == 0 else {
        throw failure(path, "cannot set mode 0700 on the new directory \(directory)", errno)
      }
      return
    }
    let code = errno
    guard code == EEXIST else {
      throw failure(path, "cannot create the directory \(directory)", code)
    }
    var status = stat()
    guard stat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
      throw failure(path, "\(directory) exists but is not a directory", 0)
    }
  }

  // MARK: - Errors

  private static func failure(_ path: String, _ what: String, _ code: Int32) -> SQLiteError {
    let reason = code == 0 ? what : "\(what): \(String(cString: strerror(code)))"
    return SQLiteError(code: .cantOpen, message: reason, sql: nil, databasePath: path)
  }
}
