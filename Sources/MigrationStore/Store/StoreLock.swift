#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One process writes a store at a time: an exclusive advisory lock (`flock`) on a file beside
/// the database, `<database>.lock`, held for the life of this value.
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
  /// The lock file.
  public let path: String

  private init(descriptor: Int32, path: String) {
    self.descriptor = descriptor
    self.path = path
  }

  deinit {
    release()
  }

  /// The lock file of a database.
  ///
  /// - Parameter databasePath: the database.
  /// - Returns: `<database>.lock`.
  public static func lockPath(forDatabaseAt databasePath: String) -> String {
    databasePath + ".lock"
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
    let path = lockPath(forDatabaseAt: databasePath)
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
    var announced = false
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      let code = errno
      guard code == EWOULDBLOCK || code == EINTR else {
        close(descriptor)
        throw Failure(
          description: "cannot lock \(path): \(String(cString: strerror(code)))")
      }
      guard code == EWOULDBLOCK else { continue }
      let holder = readHolder(descriptor)
      guard wait else {
        close(descriptor)
        throw Busy(databasePath: databasePath, holder: holder)
      }
      if !announced {
        waiting(holder)
        announced = true
      }
      usleep(useconds_t(max(1, pollInterval) * 1000))
    }
    let lock = StoreLock(descriptor: descriptor, path: path)
    lock.write(
      "pid=\(getpid())\ncommand=\(command.replacingNewlines)\nsince=\(since.replacingNewlines)\n")
    return lock
  }

  /// Who holds the store now, read without taking the lock; `nil` when nobody does.
  ///
  /// - Parameter databasePath: the database.
  /// - Returns: the holder, or `nil`.
  public static func holder(ofDatabaseAt databasePath: String) -> Holder? {
    let descriptor = open(lockPath(forDatabaseAt: databasePath), O_RDWR | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    guard flock(descriptor, LOCK_EX | LOCK_NB) != 0 else {
      _ = flock(descriptor, LOCK_UN)
      return nil
    }
    return readHolder(descriptor)
  }

  /// Releases the lock (also done when the value goes away, and by the system when the process
  /// ends). The lock file stays: removing it could let two processes lock two different files.
  public func release() {
    guard descriptor >= 0 else { return }
    _ = ftruncate(descriptor, 0)
    _ = flock(descriptor, LOCK_UN)
    close(descriptor)
    descriptor = -1
  }

  // MARK: - The holder's note

  private func write(_ text: String) {
    guard ftruncate(descriptor, 0) == 0 else { return }
    let bytes = Array(text.utf8)
    // The note is for people; a failed write only makes a refusal say less.
    _ = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
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
