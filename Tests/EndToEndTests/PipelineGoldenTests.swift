import Chronology
import Foundation
import GoldenFiles
import MigrationPipeline
import MigrationReports
import TestDirectories
import Testing

/// The report of a whole run over a small fixed world, byte for byte: what the pipeline, the
/// comparison and the renderers produce together. The world is generated from a fixed seed,
/// the clock is fixed and the run id is given, so the only variables left are the world's
/// temporary directory, written as `<world>`, and the busiest second of each endpoint (how
/// many requests went in one second of the wall clock), written as `<n>`.
@Suite("End to end: the report of a small fixed world")
struct PipelineGoldenTests {
  static let golden = Golden(
    directory: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/golden"),
    target: "EndToEndTests")

  /// `busiest second 15` and `"busiest_second": 15` with `<n>` for the number.
  static func pinned(_ text: String) -> String {
    let pattern = /(busiest second |"busiest_second": )[0-9]+/
    return text.replacing(pattern) { "\($0.output.1)<n>" }
  }

  @Test(
    "every report file of a 16-account world matches its golden file",
    arguments: [false, true])
  func report(auditsTokens: Bool) async throws {
    let world = try EndToEnd.world(seed: 3, accounts: 16)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let appStore = try EndToEnd.AppStore(
      world: world, description: "simulated App Store (seed 3, 16 accounts)")
    defer { appStore.stop() }
    let instant = try #require(Timestamp(parsing: "2025-11-01T06:00:00Z"))
    var options = try EndToEnd.options(
      world: world, reports: scratch.appendingPathComponent("reports"), runId: "golden")
    // With a mapping, the token sections of every file are pinned too.
    if auditsTokens {
      options.tokens = try AccountTokenSource.deriving(
        namespace: "6ba7b810-9dad-11d1-80b4-00c04fd430c8")
    }
    let outcome = try await EndToEnd.runner(
      scratch: scratch, appStore: appStore, options: options, now: { instant }
    ).run()
    #expect(try EndToEnd.mismatches(outcome.run.comparisons(), world: world).isEmpty)
    for name in ReportWriter.fileNames(for: outcome.run.summary) {
      let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(outcome.reportDirectory)/\(name)"))
      let text = Self.pinned(
        String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: world, with: "<world>"))
      try Self.golden.check(
        Array(text.utf8), against: "seed-3\(auditsTokens ? "-tokens" : "")/\(name)")
    }
  }
}
