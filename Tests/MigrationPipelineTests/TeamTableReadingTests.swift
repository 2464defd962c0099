import Foundation
import TestDirectories
import Testing

@testable import MigrationPipeline

/// The team table is parsed on a thread of its own while the caller stores the rows: the rows
/// still arrive whole, in file order, on the caller's thread, and a failure on either side
/// stops both and is the one reported. Kind of evidence: this project's code against files
/// written here, where every expected row is known.
@Suite("Reading the team table beside the caller")
struct TeamTableReadingTests {
  /// A table of `count` rows, every seventh one rejected for its status, across many blocks.
  static func table(rows count: Int, in directory: URL) throws -> URL {
    let file = directory.appendingPathComponent("table.csv")
    var text = "account_id,product_id,status,expires_at\n"
    for index in 0..<count {
      let status = index % 7 == 6 ? "asleep" : "active"
      text += "a\(index),pro.monthly,\(status),1767225600000\n"
    }
    try Data(text.utf8).write(to: file)
    return file
  }

  @Test("every accepted row, in file order, on the caller's thread; rejected lines by number")
  func rowsInOrder() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let file = try Self.table(rows: 30_000, in: directory)
    let caller = pthread_self()
    var accounts: [String] = []
    var blocks = 0
    var onOtherThreads = 0
    let outcome = try CurrentEntitlementsReader.read(file.path) { rows in
      if pthread_equal(pthread_self(), caller) == 0 { onOtherThreads += 1 }
      blocks += 1
      accounts += rows.map(\.accountId)
    }
    let expected = (0..<30_000).filter { $0 % 7 != 6 }.map { "a\($0)" }
    #expect(accounts == expected)
    #expect(blocks > 2)
    #expect(onOtherThreads == 0)
    #expect(outcome.rowsRead == 30_000)
    // Line 1 is the header, so row `i` is on line `i + 2`.
    #expect(outcome.rejected.map(\.line) == (0..<30_000).filter { $0 % 7 == 6 }.map { $0 + 2 })
  }

  struct StoringFailed: Error, Equatable {}

  @Test("the caller's failure is the one thrown, and parsing stops")
  func callerFails() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let file = try Self.table(rows: 100_000, in: directory)
    var calls = 0
    #expect(throws: StoringFailed()) {
      try CurrentEntitlementsReader.read(file.path) { _ in
        calls += 1
        if calls == 2 { throw StoringFailed() }
      }
    }
    #expect(calls == 2)
  }

  @Test("a file that cannot be read, or has no header, is the reader's failure")
  func readerFails() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    var calls = 0
    let missing = directory.appendingPathComponent("missing.csv").path
    #expect(throws: CurrentEntitlementsReader.Failure.self) {
      try CurrentEntitlementsReader.read(missing) { _ in calls += 1 }
    }
    let empty = directory.appendingPathComponent("empty.csv")
    try Data().write(to: empty)
    #expect(throws: CurrentEntitlementsReader.Failure.self) {
      try CurrentEntitlementsReader.read(empty.path) { _ in calls += 1 }
    }
    #expect(calls == 0)
  }
}
