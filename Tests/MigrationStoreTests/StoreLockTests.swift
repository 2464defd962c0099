import Foundation
import Testing

@testable import MigrationStore

#if canImport(Glibc)
  import Glibc
#endif

/// One writer per database file, whatever path names it. `flock` locks belong to an open file,
/// so two acquisitions in one process exclude each other as two processes do. Evidence: our
/// own code, against the file system's own notion of a file (links made with `symlink(2)` and
/// `link(2)`, identities read with `stat(2)`).
@Suite("Store lock: one writer per file")
struct StoreLockTests {
  func acquire(_ path: String) throws -> StoreLock {
    try StoreLock.acquire(forDatabaseAt: path, command: "receipt-migrate audit", since: "t0")
  }

  /// Whether a second writer through `path` is refused as busy, naming the first one.
  func isRefused(_ path: String) -> Bool {
    do {
      let second = try acquire(path)
      second.release()
      return false
    } catch let busy as StoreLock.Busy {
      return busy.description.contains("process \(getpid()) (receipt-migrate audit")
    } catch {
      Issue.record("\(path): \(error)")
      return false
    }
  }

  @Test("a symbolic link, a chain of them, a link to the folder, . and .. name the same store")
  func symbolicLinks() throws {
    try TemporaryDirectory.with { directory in
      let database = "\(directory)/db.sqlite"
      let lock = try acquire(database)
      defer { lock.release() }
      #expect(symlink(database, "\(directory)/alias.sqlite") == 0)
      #expect(symlink("db.sqlite", "\(directory)/relative.sqlite") == 0)
      #expect(symlink(directory, "\(directory)/folder") == 0)
      #expect(symlink("\(directory)/alias.sqlite", "\(directory)/chain.sqlite") == 0)
      for name in [
        "alias.sqlite", "relative.sqlite", "folder/db.sqlite", "chain.sqlite", "./db.sqlite",
        "folder/./db.sqlite", "../\(URL(fileURLWithPath: directory).lastPathComponent)/db.sqlite",
      ] {
        #expect(isRefused("\(directory)/\(name)"), "\(name)")
      }
      #expect(StoreLock.lockPath(forDatabaseAt: "\(directory)/alias.sqlite") == lock.path)
      #expect(StoreLock.holder(ofDatabaseAt: "\(directory)/chain.sqlite")?.processId == getpid())
    }
  }

  @Test("a hard link in another folder is the same store, and the refusal names the other name")
  func hardLinks() throws {
    try TemporaryDirectory.with { directory in
      let database = "\(directory)/db.sqlite"
      try FileManager.default.createDirectory(
        atPath: "\(directory)/elsewhere", withIntermediateDirectories: false)
      let lock = try acquire(database)
      defer { lock.release() }
      let hard = "\(directory)/elsewhere/copy.sqlite"
      #expect(link(database, hard) == 0)
      do {
        _ = try acquire(hard)
        Issue.record("a second writer through a hard link was let in")
      } catch let busy as StoreLock.Busy {
        #expect(busy.description.contains("process \(getpid())"))
        #expect(busy.description.contains(try #require(lock.path.dropLast(5).description)))
      }
      #expect(StoreLock.holder(ofDatabaseAt: hard)?.processId == getpid())
      lock.release()
      // Released, either name takes it.
      let second = try acquire(hard)
      second.release()
    }
  }

  @Test("a new database is created owner-only, so that a link made later meets the lock")
  func newDatabase() throws {
    try TemporaryDirectory.with { directory in
      let database = "\(directory)/new/db.sqlite"
      let lock = try acquire(database)
      defer { lock.release() }
      #expect(try TemporaryDirectory.mode(of: database) == 0o600)
      #expect(link(database, "\(directory)/later.sqlite") == 0)
      #expect(isRefused("\(directory)/later.sqlite"))
    }
  }

  @Test("a link to a file not made yet locks the file it will be")
  func danglingLink() throws {
    try TemporaryDirectory.with { directory in
      #expect(symlink("\(directory)/target.sqlite", "\(directory)/alias.sqlite") == 0)
      let lock = try acquire("\(directory)/alias.sqlite")
      defer { lock.release() }
      #expect(FileManager.default.fileExists(atPath: "\(directory)/target.sqlite"))
      #expect(isRefused("\(directory)/target.sqlite"))
    }
  }

  @Test("a loop of symbolic links is refused as one")
  func loop() throws {
    try TemporaryDirectory.with { directory in
      #expect(symlink("\(directory)/b.sqlite", "\(directory)/a.sqlite") == 0)
      #expect(symlink("\(directory)/a.sqlite", "\(directory)/b.sqlite") == 0)
      do {
        _ = try acquire("\(directory)/a.sqlite")
        Issue.record("a loop of links was locked")
      } catch let failure as StoreLock.Failure {
        #expect(failure.description.contains("loop of symbolic links"), "\(failure)")
      }
    }
  }

  @Test("two different files are two stores")
  func differentFiles() throws {
    try TemporaryDirectory.with { directory in
      let first = try acquire("\(directory)/one.sqlite")
      defer { first.release() }
      let second = try acquire("\(directory)/two.sqlite")
      second.release()
    }
  }
}
