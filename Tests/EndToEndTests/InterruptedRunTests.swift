import AppStoreSimulator
import Chronology
import Foundation
import MigrationPipeline
import MigrationReports
import MigrationStore
import TestDirectories
import Testing

/// A run that stops after comparing — while its report is written, or after the report while
/// its headline and alerts are handed over — is never the next run's baseline: the rerun alerts
/// exactly as the uninterrupted run would have (the same new findings, the same changed
/// accounts, the same lost notifications, the same exit code), so no alert is swallowed.
///
/// In process, through the loopback simulator; the reference is the tool's own uninterrupted
/// run (our own code on both sides). The same property with real processes and real signals is
/// in `ReceiptMigrateTests.InterruptedAlertTests`.
@Suite("End to end: an interrupted run never swallows an alert")
struct InterruptedRunTests {
  /// What a night tells a person.
  struct Told: Equatable {
    var since: RunChangeCounts?
    var changes: [String]
    var lost: [String]
    var exitStatus: Int32
  }

  static func told(_ run: RecordedRun) -> Told {
    var since = run.summary.since
    since?.previousRunId = ""
    return Told(
      since: since,
      changes: run.changes.map {
        "\($0.accountId) \($0.primary?.kind.rawValue ?? "-") \($0.table?.kind.rawValue ?? "-")"
      }, lost: run.lostNotifications.map(\.uuid).sorted(), exitStatus: run.exitStatus)
  }

  /// How a night is interrupted.
  enum Interruption: String, CaseIterable, CustomStringConvertible {
    /// The report folder cannot be written: the run stops after comparing, before any report.
    case whileWritingReport
    /// The report is committed, then the process stops before its alerts are handed over.
    case whileAlerting
    var description: String { rawValue }
  }

  static func copyStore(from source: URL, to target: URL) throws {
    try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
    for suffix in ["", "-wal", "-shm"] {
      let from = source.appendingPathComponent("store.sqlite" + suffix)
      guard FileManager.default.fileExists(atPath: from.path) else { continue }
      try FileManager.default.copyItem(
        at: from, to: target.appendingPathComponent("store.sqlite" + suffix))
    }
  }

  struct Stop: Error {}

  @Test(
    "stopped while writing its report or its alerts, the next run alerts exactly as the uninterrupted one",
    arguments: Interruption.allCases)
  func rerunAlertsAgain(_ interruption: Interruption) async throws {
    let world = try EndToEnd.timelineWorld(seed: 57, accounts: 120, days: 3, rateScale: 5)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let base = scratch.appendingPathComponent("night0")
    let night0 = try NightlyAuditTests.night(0, world: world, scratch: scratch)
    do {
      let appStore = try EndToEnd.AppStore(world: world, clock: night0.clock)
      defer { appStore.stop() }
      _ = try await EndToEnd.runner(
        scratch: base, appStore: appStore,
        options: try NightlyAuditTests.options(
          world: world, scratch: base, night: night0, runId: "night-0")
      ).run()
    }
    let night2 = try NightlyAuditTests.night(2, world: world, scratch: scratch)
    func night(
      _ name: String, in folder: URL, reports: URL? = nil,
      delivering: @escaping (MigrationOutcome) async throws -> Void = { _ in }
    ) async throws -> MigrationOutcome {
      let appStore = try EndToEnd.AppStore(world: world, clock: night2.clock)
      defer { appStore.stop() }
      var options = try NightlyAuditTests.options(
        world: world, scratch: folder, night: night2, runId: name,
        failOn: "new:table:any,new:any")
      if let reports { options.reportsDirectory = reports.path }
      return try await EndToEnd.runner(scratch: folder, appStore: appStore, options: options)
        .run(delivering: delivering)
    }

    let reference = scratch.appendingPathComponent("reference")
    try Self.copyStore(from: base, to: reference)
    let uninterrupted = Self.told(try await night("night-2", in: reference).run)
    #expect(uninterrupted.exitStatus == 1, "the reference night must alert")
    #expect(!(uninterrupted.since?.primary?[.newFinding] ?? 0 == 0 && uninterrupted.lost.isEmpty))

    let folder = scratch.appendingPathComponent("interrupted")
    try Self.copyStore(from: base, to: folder)
    switch interruption {
    case .whileWritingReport:
      // A file where the reports folder should be: the report cannot be written.
      let blocked = scratch.appendingPathComponent("blocked")
      try Data("not a folder".utf8).write(to: blocked)
      await #expect(throws: (any Error).self) {
        _ = try await night("night-2-stopped", in: folder, reports: blocked)
      }
    case .whileAlerting:
      await #expect(throws: Stop.self) {
        _ = try await night("night-2-stopped", in: folder) { _ in throw Stop() }
      }
    }
    let store = try MigrationStore(path: folder.appendingPathComponent("store.sqlite").path) {
      0
    }
    let stopped = try #require(try store.runLedger.run("night-2-stopped"))
    try store.close()
    #expect(stopped.finishedMilliseconds != nil, "the stopped run compared every account")
    #expect(!stopped.isComplete)
    #expect(stopped.isReported == (interruption == .whileAlerting))

    let rerun = try await night("night-2-rerun", in: folder)
    #expect(rerun.run.summary.since?.previousRunId == "night-0")
    #expect(Self.told(rerun.run) == uninterrupted)
    let reports = folder.appendingPathComponent("r")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: reports.path).filter {
      $0.hasSuffix(".partial") || $0.hasSuffix(".replaced")
    }
    #expect(leftovers.isEmpty)
    #expect(
      FileManager.default.fileExists(
        atPath: reports.appendingPathComponent("night-2-rerun/run.json").path))
  }
}
