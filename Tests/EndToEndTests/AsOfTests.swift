import AppStoreSimulator
import Chronology
import Foundation
import MigrationPipeline
import TestDirectories
import Testing

/// `--as-of` at any instant, on both sides: the old side reads only the legacy responses the
/// team held then; the new side is what the App Store data proves about that instant — before
/// the data, reconstructed from the history with billing trouble proven by a later status;
/// after it, read only while it provably holds. Every account equals the simulator's oracle for
/// the same instant and the same data (the oracle is this team's code, written apart from the
/// comparison).
@Suite("End to end: --as-of before and after the data")
struct AsOfTests {
  /// The team table the world's flawed legacy logic holds at `instant`, and the expectations.
  static func expectations(
    world: String, at instant: Timestamp, scratch: URL, dataAsOf: Timestamp? = nil,
    dataFetchedAt: Timestamp? = nil
  ) throws -> (table: String, expected: [String: (category: String, table: String)]) {
    let setup = try SimulatorSetup.prepare(worldDirectory: world)
    let files = GeneratedArchive(world: setup.world).expectations(
      at: instant, dataAsOf: dataAsOf, dataFetchedAt: dataFetchedAt)
    let path = scratch.appendingPathComponent("table-\(instant.millisecondsSince1970).csv").path
    try Data(files.table.utf8).write(to: URL(fileURLWithPath: path))
    var expected: [String: (String, String)] = [:]
    for line in files.expected.split(separator: "\n").dropFirst() {
      let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      expected[fields[0]] = (fields[1], fields[2])
    }
    return (path, expected)
  }

  @Test(
    "before the data: responses captured later are set aside, billing trouble a later status proves is read, and every account equals the oracle"
  )
  func beforeTheData() async throws {
    let world = try EndToEnd.world(seed: 23, accounts: 150)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let appStore = try EndToEnd.AppStore(world: world)
    defer { appStore.stop() }
    let clock = appStore.embedded.setup.world.now
    var options = try EndToEnd.options(world: world, reports: scratch.appendingPathComponent("r"))
    _ = try await EndToEnd.runner(scratch: scratch, appStore: appStore, options: options).run()

    // Twenty days before the data was fetched.
    let instant = clock.adding(milliseconds: -20 * Timestamp.millisecondsPerDay)
    let then = try Self.expectations(
      world: world, at: instant, scratch: scratch, dataFetchedAt: clock)
    options.asOf = instant
    options.currentEntitlementsPath = then.table
    options.runId = "as-of-before"
    let run = try EndToEnd.runner(scratch: scratch, appStore: appStore, options: options)
      .compare()
    let comparisons = try run.comparisons()
    #expect(comparisons.count == then.expected.count)
    let problems = NightlyAuditTests.mismatches(comparisons, then.expected)
    #expect(problems.isEmpty, "\(problems.prefix(8))")
    // The instant reaches back past some responses, and some of billing trouble.
    #expect(run.summary.responsesSetAside > 0)
    #expect(
      comparisons.contains { comparison in
        comparison.keys.contains { [.gracePeriod, .billingRetry].contains($0.new?.status) }
      })
    #expect(comparisons.allSatisfy { $0.category != .staleAppStoreData })
  }

  @Test(
    "after the data by more than --max-data-age, nothing of the data is read: every account with App Store data is stale, as the oracle says"
  )
  func afterTheData() async throws {
    let world = try EndToEnd.timelineWorld(seed: 31, accounts: 220, days: 4, rateScale: 4)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let first = try NightlyAuditTests.night(0, world: world, scratch: scratch)
    let appStore = try EndToEnd.AppStore(world: world, clock: first.clock)
    defer { appStore.stop() }
    var options = try NightlyAuditTests.options(
      world: world, scratch: scratch, night: first, runId: "night-0")
    _ = try await EndToEnd.runner(scratch: scratch, appStore: appStore, options: options).run()

    // Four days later, compared without a refresh.
    let instant = try EndToEnd.night(4, of: world)
    let later = try Self.expectations(
      world: world, at: instant, scratch: scratch, dataAsOf: first.clock)
    options.asOf = instant
    options.currentEntitlementsPath = later.table
    options.runId = "as-of-after"
    let run = try EndToEnd.runner(scratch: scratch, appStore: appStore, options: options)
      .compare()
    let comparisons = try run.comparisons()
    let problems = NightlyAuditTests.mismatches(comparisons, later.expected)
    #expect(problems.isEmpty, "\(problems.prefix(8))")
    let stale = comparisons.filter { $0.category == .staleAppStoreData }
    #expect(!stale.isEmpty)
    #expect(stale.contains { $0.explanation.contains("nothing vouches for it since") })
    #expect(run.exitStatus == 4)
  }
}
