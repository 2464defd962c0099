import Entitlements
import Foundation
import Synchronization
import TestDirectories
import Testing

@testable import MigrationReports

/// Report files are written out block by block as they are rendered; what lands on disk is
/// exactly what rendering in memory gives, however many blocks it takes.
@Suite("Writing large report files in blocks")
struct StreamedWritingTests {
  @Test("files of several blocks are written byte for byte as rendered")
  func severalBlocks() throws {
    let comparisons = ScaleTests.comparisons(count: 6_000)
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    try ReportWriter.write(
      summary: SampleWorld.simulatedSummary, comparisons: comparisons, to: directory)
    let rendered = ReportWriter.render(
      summary: SampleWorld.simulatedSummary, comparisons: comparisons)
    #expect(
      rendered.contains { $0.bytes.count > 2 * ReportOutput.blockSize },
      "the run is large enough for at least one file to take several blocks")
    for file in rendered {
      let written = try #require(FileManager.default.contents(atPath: directory + "/" + file.name))
      #expect([UInt8](written) == file.bytes, "\(file.name) on disk differs from the rendering")
    }
  }

  @Test("a file that cannot be written leaves nothing behind and names the file")
  func unwritable() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    // /dev/full accepts the open and fails every write with ENOSPC.
    let path = directory + "/report.html"
    try FileManager.default.createSymbolicLink(
      atPath: path + ".tmp", withDestinationPath: "/dev/full")
    #expect {
      try ReportFileSystem.writeAtomically(to: path) { output in
        for _ in 0..<3 { output.write([UInt8](repeating: 0x61, count: ReportOutput.blockSize)) }
      }
    } throws: { error in
      (error as? ReportError)?.description.contains(path) == true
    }
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test("a report streamed from a source asks for each account once, a chunk at a time")
  func chunkedSource() throws {
    let comparisons = ScaleTests.comparisons(count: 3_000)
    let source = CountingSource(comparisons)
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    try ReportWriter.write(summary: SampleWorld.simulatedSummary, source: source, to: directory)
    let asked = source.asked.withLock { $0 }
    #expect(asked.map(\.count).reduce(0, +) == comparisons.count)
    #expect(Set(asked.joined()).count == comparisons.count)
    #expect((asked.map(\.count).max() ?? 0) <= ReportComposer.chunkSize)
    let rendered = ReportWriter.render(
      summary: SampleWorld.simulatedSummary, comparisons: comparisons)
    for file in rendered {
      let written = try #require(FileManager.default.contents(atPath: directory + "/" + file.name))
      #expect([UInt8](written) == file.bytes, "\(file.name) streamed differs from the rendering")
    }
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter { $0.hasSuffix(".tmp") }
    #expect(leftovers.isEmpty)
  }

  @Test("comparisons in memory keep two accounts whose ids differ only in normalization")
  func equivalentAccountIds() throws {
    // `jos\u{E9}` and `jose\u{301}` are equal Swift strings but two accounts in the store.
    let ids = ["jos\u{E9}@example.com", "jose\u{301}@example.com"]
    let comparisons = ScaleTests.comparisons(count: 2).enumerated().map { index, comparison in
      var comparison = comparison
      comparison.accountId = ids[index]
      return comparison
    }
    var listed: [[UInt8]] = []
    try ComparisonArray(comparisons).forEachInDisplayOrder(chunkSize: 1, pseudonymizer: nil) {
      listed += $0.map { Array($0.accountId.utf8) }
    }
    // Different categories, so display order is by category: compare as sets of bytes.
    #expect(Set(listed) == Set(ids.map { Array($0.utf8) }))
    #expect(listed.count == 2)
  }

  @Test("a streamed report whose source fails writes nothing and leaves nothing behind")
  func failingSource() throws {
    struct Broken: Error {}
    let source = CountingSource(ScaleTests.comparisons(count: 1_500), failAfter: 2)
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    #expect(throws: Broken.self) {
      try ReportWriter.write(
        summary: SampleWorld.simulatedSummary, source: source.failing(with: Broken()),
        to: directory)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
  }
}

/// A source over comparisons in memory that records what it was asked for, and can fail.
private final class CountingSource: ComparisonSource, @unchecked Sendable {
  let base: ComparisonArray
  let asked = Mutex<[[String]]>([])
  let failAfter: Int?
  var failure: (any Error)?

  init(_ comparisons: [AccountComparison], failAfter: Int? = nil) {
    base = ComparisonArray(comparisons)
    self.failAfter = failAfter
  }

  func failing(with error: any Error) -> CountingSource {
    failure = error
    return self
  }

  func forEachInDisplayOrder(
    chunkSize: Int, pseudonymizer: Pseudonymizer?, _ body: ([AccountComparison]) throws -> Void
  ) throws {
    try base.forEachInDisplayOrder(chunkSize: chunkSize, pseudonymizer: pseudonymizer) { chunk in
      let count = asked.withLock { asked in
        asked.append(chunk.map(\.accountId))
        return asked.count
      }
      if let failAfter, let failure, count > failAfter { throw failure }
      try body(chunk)
    }
  }
}
