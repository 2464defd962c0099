#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which file a database path names, whatever the path: its resolved path (every symbolic link
/// followed, `.` and `..` gone) and its identity (device and inode), which every hard link of
/// the file shares.
///
/// ``StoreLock`` keys its locks on these, so that `--db alias.sqlite` (a symbolic link),
/// `--db ./db.sqlite`, `--db /elsewhere/copy.sqlite` (a hard link) and `--db db.sqlite` are one
/// store with one writer.
struct StoreIdentity: Hashable {
  /// The resolved path of the database file.
  var path: String
  /// The file system the file is on.
  var device: UInt64
  /// The file's inode on that file system.
  var inode: UInt64

  /// The most symbolic links followed from a path, as the kernel's own limit (`ELOOP`).
  static let maximumLinks = 40

  /// Resolves `path`, creating the database file (empty, owner-only, with its missing parent
  /// directories) when there is none, so that it has an identity to lock before SQLite
  /// initialises it; SQLite reads an empty file as a new database.
  ///
  /// - Parameter path: the database path as given.
  /// - Returns: the file's resolved path and identity.
  /// - Throws: ``StoreLock/Failure`` naming the path and the reason (a loop of symbolic links
  ///   says so).
  static func of(databaseAt path: String) throws(StoreLock.Failure) -> StoreIdentity {
    do {
      try OwnerOnlyFiles.createIfMissing(path)
    } catch {
      throw StoreLock.Failure(description: "cannot create the database \(path): \(error)")
    }
    let resolved = try resolve(path)
    do {
      // For a link to nothing (which the first call leaves alone), the file it points to.
      try OwnerOnlyFiles.createIfMissing(resolved)
    } catch {
      throw StoreLock.Failure(description: "cannot create the database \(resolved): \(error)")
    }
    var status = stat()
    guard stat(resolved, &status) == 0 else {
      throw failure(path, "cannot examine", errno)
    }
    return StoreIdentity(
      path: resolved, device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
  }

  /// The path with every symbolic link followed, including a last one whose target does not
  /// exist yet.
  ///
  /// - Parameter path: a path.
  /// - Returns: the absolute resolved path.
  /// - Throws: ``StoreLock/Failure`` for a loop of links or a directory that cannot be read.
  static func resolve(_ path: String) throws(StoreLock.Failure) -> String {
    var current = path
    for _ in 0...maximumLinks {
      if let real = realpath(current, nil) {
        defer { free(real) }
        return String(cString: real)
      }
      let code = errno
      if code == ELOOP { throw loop(path) }
      guard code == ENOENT else { throw failure(path, "cannot resolve", code) }
      // The file itself is missing, or is a link to nothing: resolve its directory, then follow
      // the last component by hand.
      let (directory, name) = split(current)
      guard let realDirectory = realpath(directory, nil) else {
        let directoryCode = errno
        if directoryCode == ELOOP { throw loop(path) }
        throw failure(path, "cannot resolve the directory \(directory) of", directoryCode)
      }
      let base = String(cString: realDirectory)
      free(realDirectory)
      let candidate = base == "/" ? "/" + name : base + "/" + name
      guard let target = linkTarget(candidate) else { return candidate }
      current = target.hasPrefix("/") ? target : (base == "/" ? "" : base) + "/" + target
    }
    throw loop(path)
  }

  /// Where a symbolic link points, or `nil` when `path` is not one.
  private static func linkTarget(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count >= 0 else { return nil }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private static func split(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
  }

  private static func loop(_ path: String) -> StoreLock.Failure {
    StoreLock.Failure(
      description: "the database path \(path) is a loop of symbolic links (more than "
        + "\(maximumLinks) links, or one leading back to itself); name the file itself with --db")
  }

  private static func failure(_ path: String, _ what: String, _ code: Int32) -> StoreLock.Failure {
    StoreLock.Failure(
      description: "\(what) the database path \(path): \(String(cString: strerror(code)))")
  }

  // MARK: - The identity's lock

  /// The folder of identity locks: one per user, `/tmp/receipt-migrate-<uid>`. It is shared by
  /// every process of the user on this machine (not by `$TMPDIR`, which two shells may set
  /// differently) and holds one small file per database ever locked.
  static var lockDirectory: String { "/tmp/receipt-migrate-\(getuid())" }

  /// The lock file of the identity: `<lockDirectory>/store-<device>-<inode>.lock`.
  var lockPath: String { "\(Self.lockDirectory)/store-\(device)-\(inode).lock" }

  /// Makes ``lockDirectory`` (mode 0700) if missing, and refuses one that is not this user's
  /// own directory: anyone could create it first in `/tmp`.
  ///
  /// - Throws: ``StoreLock/Failure`` naming the folder and what is wrong with it.
  static func prepareLockDirectory() throws(StoreLock.Failure) {
    let directory = lockDirectory
    if mkdir(directory, 0o700) != 0, errno != EEXIST {
      throw StoreLock.Failure(
        description:
          "cannot create the lock folder \(directory): \(String(cString: strerror(errno)))"
      )
    }
    var status = stat()
    guard lstat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR,
      status.st_uid == getuid(), status.st_mode & 0o022 == 0
    else {
      throw StoreLock.Failure(
        description: "the lock folder \(directory) is not a directory of this user's that only "
          + "this user can write; remove it (it holds nothing but lock files)")
    }
  }
}
