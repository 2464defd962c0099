import Foundation
import Testing

@testable import MigrationReports

/// Report files are written out block by block as they are rendered; what lands on disk is
/// exactly what rendering in memory gives, however many blocks it takes.
@Suite("Writing large report files in blocks")
struct StreamedWritingTests {
  @Test("files of several blocks are written byte for byte as rendered")
  func severalBlocks() throws {
    let comparisons = ScaleTests.comparisons(count: 6_000)
    let directory = try TestFiles.temporaryDirectory()
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
    let directory = try TestFiles.temporaryDirectory()
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
}
