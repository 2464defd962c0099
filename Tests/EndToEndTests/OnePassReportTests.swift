import AppStoreSimulator
import Foundation
import MigrationPipeline
import MigrationReports
import MigrationStore
import Synchronization
import TestDirectories
import Testing

/// `report` writes a run in one pass when the store has not changed since the run, and falls
/// back to classifying every account again when it has: either way the files are the ones the
/// two-pass way writes. Kind of evidence: this project's code against its own earlier path, on
/// a store a whole run against the simulator filled.
@Suite("End to end: a report in one pass")
struct OnePassReportTests {
  /// The stages whose progress began, in order.
  final class StageRecorder: ProgressObserver {
    let started = Mutex<[String]>([])
    func stageStarted(_ stage: String, unit: String, total: Int64?) {
      started.withLock { $0.append(stage) }
    }
    func advanced(_ stage: String, by units: Int64) {}
    func counted(_ stage: String, _ counter: String, by amount: Int64) {}
    func stageFinished(_ stage: String) {}
  }

  /// Writes the run's report the two-pass way (every account classified again, then written in
  /// that order) into `directory`.
  static func twoPassReport(_ run: StoredRun, store: MigrationStore, into directory: URL)
    throws -> (directory: String, changed: [String])
  {
    let counted = try run.recount(store: store)
    let written = try ReportWriter.writeRun(
      summary: run.summary, source: try run.source(outline: counted.outline, store: store),
      context: try run.context(store: store), reportsDirectory: directory.path)
    return (written, counted.changed)
  }

  /// Every file of two run folders, byte for byte.
  static func expectSameFiles(_ first: String, _ second: String) throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: first).sorted()
    #expect(names == (try FileManager.default.contentsOfDirectory(atPath: second).sorted()))
    #expect(names.contains("report.html"))
    for name in names {
      let one = FileManager.default.contents(atPath: "\(first)/\(name)")
      let other = FileManager.default.contents(atPath: "\(second)/\(name)")
      #expect(one != nil && one == other, "\(name) differs")
    }
  }

  @Test("an unchanged store: one pass, and the same files as classifying every account again")
  func unchanged() async throws {
    let world = try EndToEnd.world(seed: 25, accounts: 60)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let options = try EndToEnd.options(world: world, reports: scratch.appendingPathComponent("r"))
    let appStore = try EndToEnd.AppStore(world: world)
    defer { appStore.stop() }
    let result = try await EndToEnd.runner(scratch: scratch, appStore: appStore, options: options)
      .run()
    let store = try MigrationStore(
      path: scratch.appendingPathComponent("store.sqlite").path, readOnly: true, now: { 0 })
    defer { try? store.close() }
    let run = try StoredRun.load(from: store, id: result.run.summary.runId)
    let recorder = StageRecorder()
    let onePass = try run.writeReport(
      store: store, reportsDirectory: scratch.appendingPathComponent("one").path,
      options: ReportOptions(), observer: recorder)
    #expect(onePass.changed.isEmpty)
    #expect(recorder.started.withLock { $0 } == [StoredComparisons.stageName])
    let twoPass = try Self.twoPassReport(
      run, store: store, into: scratch.appendingPathComponent("two"))
    try Self.expectSameFiles(onePass.directory, twoPass.directory)
  }

  @Test("a store a later backfill changed: the pass stops, and every account is classified again")
  func changed() async throws {
    let world = try EndToEnd.world(seed: 25, accounts: 60)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let storePath = scratch.appendingPathComponent("store.sqlite").path
    let options = try EndToEnd.options(world: world, reports: scratch.appendingPathComponent("r"))
    // Bad status signatures leave accounts unresolved; a healthy backfill later resolves them.
    let first = try await EndToEnd.runWithBadStatusSignatures(
      world: world, scratch: scratch, options: options)
    try await EndToEnd.heal(world: world, scratch: scratch, options: options)

    let store = try MigrationStore(path: storePath, readOnly: true, now: { 0 })
    defer { try? store.close() }
    let run = try StoredRun.load(from: store, id: first.run.summary.runId)
    let recorder = StageRecorder()
    let written = try run.writeReport(
      store: store, reportsDirectory: scratch.appendingPathComponent("one").path,
      options: ReportOptions(), observer: recorder)
    let twoPass = try Self.twoPassReport(
      run, store: store, into: scratch.appendingPathComponent("two"))
    #expect(!written.changed.isEmpty)
    #expect(written.changed == twoPass.changed)
    #expect(
      recorder.started.withLock { $0 } == [
        StoredComparisons.stageName, CompareStage.name, StoredComparisons.stageName,
      ])
    try Self.expectSameFiles(written.directory, twoPass.directory)
    // The stopped pass left nothing half-written behind.
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: written.directory)
      .filter { $0.hasSuffix(".tmp") || $0.hasSuffix(".rows") }
    #expect(leftovers.isEmpty)
  }
}
