import AppStoreServerAPI
import AppStoreSimulator
import Foundation
import MigrationPipeline
import MigrationReports
import TestDirectories
import Testing

/// The simulator answering in this process (what `bench scale` builds its stores with) must
/// lead the real pipeline to the same categories as the loopback server does: the oracle's.
/// Our own code on both sides.
@Suite("End to end: the in-process simulator")
struct InProcessSimulatorTests {
  @Test("a generated world backfilled without sockets: every category exact")
  func exactCategories() async throws {
    let world = try EndToEnd.world(seed: 12, accounts: 150)
    let setup = try SimulatorSetup.prepare(worldDirectory: world)
    var simulator = setup.configuration(now: SystemTime.now)
    simulator.rateLimits = .off
    let transport = try InProcessSimulator(configuration: simulator)
    var configuration = ClientConfiguration(
      credentials: setup.testKey.credentials, trustedRoots: [setup.chain.root.certificate],
      appAppleId: setup.world.appAppleId, baseURLOverrides: InProcessSimulator.baseURLOverrides)
    configuration.rateLimits = EndToEnd.generousLimits
    let client = try AppStoreServerAPIClient(
      configuration: configuration, transport: transport, notice: { _ in })
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let outcome = try await MigrationRunner(
      storePath: scratch.appendingPathComponent("store.sqlite").path,
      appStore: ConnectedAppStore(
        client: client,
        source: AppStoreSource(isSimulated: true, description: "in process", environment: "auto"),
        identity: "in-process", clock: setup.world.now),
      options: try EndToEnd.options(world: world, reports: scratch.appendingPathComponent("r")),
      toolVersion: "test", now: SystemTime.now
    ).run()
    let mismatches = try EndToEnd.mismatches(outcome.run.comparisons(), world: world)
    #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    #expect(outcome.backfill.failedIds == 0)
    #expect((outcome.backfill.counters?.totalRequests ?? 0) > 0)
  }
}
