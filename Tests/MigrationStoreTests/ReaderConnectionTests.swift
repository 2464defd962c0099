import Foundation
import MigrationStore
import Testing

/// The second, read-only connection compare reads ahead with (own-code evidence).
@Suite("MigrationStore reader connections")
struct ReaderConnectionTests {
  @Test(
    "a file store gives a reader that sees committed rows; none inside a transaction or in memory")
  func reader() throws {
    try TemporaryDirectory.with { directory in
      let store = try MigrationStore(path: directory + "/state.sqlite", now: { 0 })
      defer { try? store.close() }
      let run = try store.beginIngestRun(inputs: #"["a.ndjson"]"#, startedMilliseconds: 1)
      try store.finishIngestRun(run, finishedMilliseconds: 2, summary: "{}")
      let reader = try #require(try store.openReader())
      #expect(try reader.latestFinishedIngestInputs() == #"["a.ndjson"]"#)
      try reader.close()
      let insideTransaction = try store.writeTransaction { try store.openReader() }
      #expect(insideTransaction == nil, "a reader would not see this transaction's writes")
    }
    #expect(try MigrationStore(inMemoryWithClock: { 0 }).openReader() == nil)
  }
}
