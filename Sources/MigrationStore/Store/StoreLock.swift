#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One process writes a store at a time: exclusive advisory locks (`flock`) held for the life of
/// this value, keyed on the database file itself rather than on the path that named it.
///
/// Two locks, taken in this order:
/// - `<resolved database path>.lock`, beside the file every symbolic link of the path leads to,
///   so that `--db alias.sqlite` (a link) and `--db db.sqlite` meet at one lock file; it is
///   also the lock other machines and containers sharing the folder see.
/// - `/tmp/receipt-migrate-<uid>/store-<device>-<inode>.lock`, keyed on the file's identity,
///   which every hard link of the database shares: two names in two folders are one store. (It
///   lives in `/tmp` because the names of a hard-linked file have no folder in common.)
///
/// A database that does not exist yet is created (empty, mode 0600) first, so that it has an
/// identity to lock before anyone can link to it.
///
/// Two runs on one store would both spend the App Store's budget on the same customers and race
/// for the same rows; a cron audit that overlaps the next night's must not. The operating system
/// releases the lock when the holding process ends, however it ends, so a run killed with
/// `kill -9` never blocks the next one — unlike a pid file, nothing stale is left to clean up.
/// While holding the lock, the holder writes who it is (process id, command, since when) into the
/// lock file, so that a process refused can say who holds the store.
///
/// Not `Sendable`: one command takes the lock and keeps it until it ends.
public final class StoreLock {
  /// Who holds a store, as the holder wrote it into the lock file.
  public struct Holder: Hashable, Sendable, CustomStringConvertible {
    /// The holder's process id.
    public var processId: Int32?
    /// The command it runs, such as `receipt-migrate audit`.
    public var command: String?
    /// When it took the lock (ISO 8601).
    public var since: String?
    /// The database it holds, by its resolved path.
    public var database: String?

    /// "process 4242 (receipt-migrate audit), since 2026-11-25T03:00:01Z".
    public var description: String {
      var text = processId.map { "process \($0)" } ?? "another process"
      if let command { text += " (\(command))" }
      if let since { text += ", since \(since)" }
      return text
    }
  }

  /// The store is held by another process.
  public struct Busy: Error, CustomStringConvertible {
    /// The database.
    public var databasePath: String
    /// Who holds it, if the lock file says.
    public var holder: Holder?

    /// Says who holds the store and what to do.
    public var description: String {
      "the database \(databasePath) is in use by \(holder?.description ?? "another process"); "
        + "one run at a time per store: wait for it to finish (or pass --wait), or use another "
        + "--db"
    }
  }

  /// The lock file could not be made or locked.
  public struct Failure: Error, CustomStringConvertible {
    /// What went wrong, with the path and the system's reason.
    public var description: String
  }

  private var descriptor: Int32
  private var identityDescriptor: Int32
  /// The lock file beside the database.
  public let path: String
  /// The lock file of the database's identity (device and inode).
  public let identityPath: String

  private init(descriptor: Int32, path: String, identityDescriptor: Int32, identityPath: String) {
    self.descriptor = descriptor
    self.path = path
    self.identityDescriptor = identityDescriptor
    self.identityPath = identityPath
  }

  deinit {
    release()
  }

  /// The lock file beside a database: `<database>.lock`, after every symbolic link of the path
  /// is followed (the path as given when it cannot be resolved).
  ///
  /// - Parameter databasePath: the database.
  /// - Returns: `<resolved database>.lock`.
  public static func lockPath(forDatabaseAt databasePath: String) -> String {
    ((try? StoreIdentity.resolve(databasePath)) ?? databasePath) + ".lock"
  }

  /// Takes the store's lock.
  ///
  /// - Parameters:
  ///   - databasePath: the database.
  ///   - command: what the holder runs, written into the lock file for others to read.
  ///   - since: when (ISO 8601), written into the lock file.
  ///   - wait: whether to wait until the holder is done instead of refusing at once.
  ///   - waiting: called once, with the holder, when `wait` is true and the store is held.
  ///   - pollInterval: how often a waiting process tries again, in milliseconds.
  /// - Returns: the lock; it is released when the value goes away or ``release()`` is called.
  /// - Throws: ``Busy`` when another process holds the store and `wait` is false, ``Failure``
  ///   when the lock file cannot be made.
  public static func acquire(
    forDatabaseAt databasePath: String, command: String, since: String, wait: Bool = false,
    waiting: (Holder?) -> Void = { _ in }, pollInterval: Int = 500
  ) throws -> StoreLock {
    let identity = try StoreIdentity.of(databaseAt: databasePath)
    try StoreIdentity.prepareLockDirectory()
    var announced = false
    let announce = { (holder: Holder?) in
      guard !announced else { return }
      waiting(holder)
      announced = true
    }
    let path = identity.path + ".lock"
    let descriptor = try lock(
      path, databasePath: databasePath, wait: wait, waiting: announce, pollInterval: pollInterval)
    let identityDescriptor: Int32
    do {
      identityDescriptor = try lock(
        identity.lockPath, databasePath: databasePath, wait: wait, waiting: announce,
        pollInterval: pollInterval, otherName: true)
    } catch {
      close(descriptor)
      throw error
    }
    let lock = StoreLock(
      descriptor: descriptor, path: path, identityDescriptor: identityDescriptor,
      identityPath: identity.lockPath)
    lock.write(
      "pid=\(getpid())\ncommand=\(command.replacingNewlines)\nsince=\(since.replacingNewlines)\n"
        + "database=\(identity.path.replacingNewlines)\n")
    return lock
  }

  /// Opens and locks one lock file, waiting (or not) while another process holds it.
  ///
  /// - Parameter otherName: whether the file is the identity's: a holder met only there holds
  ///   the database through another name (a hard link), which the refusal says.
  /// - Returns: the locked descriptor.
  private static func lock(
    _ path: String, databasePath: String, wait: Bool, waiting: (Holder?) -> Void,
    pollInterval: Int, otherName: Bool = false
  ) throws -> Int32 {
    do {
      try OwnerOnlyFiles.createIfMissing(path)
    } catch {
      throw Failure(description: "cannot create the lock file \(path): \(error)")
    }
    let descriptor = open(path, O_RDWR | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw Failure(
        description: "cannot open the lock file \(path): \(String(cString: strerror(errno)))")
    }
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      let code = errno
      guard code == EWOULDBLOCK || code == EINTR else {
        close(descriptor)
        throw Failure(
          description: "cannot lock \(path): \(String(cString: strerror(code)))")
      }
      guard code == EWOULDBLOCK else { continue }
      var holder = readHolder(descriptor)
      if otherName, var named = holder, let other = named.database {
        // Met only at the identity's lock: the holder writes the database through another name.
        named.command = named.command.map { "\($0) on \(other)" } ?? "on \(other)"
        holder = named
      }
      guard wait else {
        close(descriptor)
        throw Busy(databasePath: databasePath, holder: holder)
      }
      waiting(holder)
      usleep(useconds_t(max(1, pollInterval) * 1000))
    }
    return descriptor
  }

  /// Who holds the store now, read without taking the lock; `nil` when nobody does.
  ///
  /// - Parameter databasePath: the database.
  /// - Returns: the holder, or `nil`.
  public static func holder(ofDatabaseAt databasePath: String) -> Holder? {
    var paths = [lockPath(forDatabaseAt: databasePath)]
    if let resolved = try? StoreIdentity.resolve(databasePath) {
      var status = stat()
      if stat(resolved, &status) == 0 {
        paths.append(
          StoreIdentity(
            path: resolved, device: UInt64(status.st_dev), inode: UInt64(status.st_ino)
          ).lockPath)
      }
    }
    for path in paths {
      let descriptor = open(path, O_RDWR | O_CLOEXEC)
      guard descriptor >= 0 else { continue }
      defer { close(descriptor) }
      guard flock(descriptor, LOCK_EX | LOCK_NB) != 0 else {
        _ = flock(descriptor, LOCK_UN)
        continue
      }
      return readHolder(descriptor) ?? Holder()
    }
    return nil
  }

  /// Releases the locks (also done when the value goes away, and by the system when the
  /// process ends). The lock files stay: removing one could let two processes lock two
  /// different files.
  public func release() {
    for descriptor in [identityDescriptor, descriptor] where descriptor >= 0 {
      _ = ftruncate(descriptor, 0)
      _ = flock(descriptor, LOCK_UN)
      close(descriptor)
    }
    identityDescriptor = -1
    descriptor = -1
  }

  // MARK: - The holder's note

  private func write(_ text: String) {
    let bytes = Array(text.utf8)
    for descriptor in [descriptor, identityDescriptor] where ftruncate(descriptor, 0) == 0 {
      // The note is for people; a failed write only makes a refusal say less.
      _ = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }
  }

  private static func readHolder(_ descriptor: Int32) -> Holder? {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return nil }
    var holder = Holder()
    for line in String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n") {
      let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2 else { continue }
      switch parts[0] {
      case "pid": holder.processId = Int32(parts[1])
      case "command": holder.command = parts[1]
      case "since": holder.since = parts[1]
      case "database": holder.database = parts[1]
      default: continue
      }
    }
    return holder
  }
}

extension String {
  /// The text on one line: the lock file holds one field per line.
  fileprivate var replacingNewlines: String {
    String(map { $0 == "\n" || $0 == "\r" ? " " : $0 })
  }
}
