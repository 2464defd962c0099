import AppStoreServerAPI
import AppStoreSimulator
import Chronology
import Foundation
import MigrationPipeline
import TestDirectories
import Testing

/// `--rate-share`: a night paced at a share of Apple's per-app limits, judged by the simulator,
/// which counts the requests it receives per endpoint and refuses (429) any beyond the limit it
/// is given — the cap itself — and whose oracle gives the night's categories. (The simulator is
/// this team's code, written apart from the client's pacing and the comparison.)
@Suite("End to end: the rate share")
struct RateShareTests {
  @Test(
    "a night capped at a tenth of Apple's limits stays under the cap on every endpoint, as the simulator counts it"
  )
  func underTheCap() async throws {
    let world = try EndToEnd.timelineWorld(seed: 31, accounts: 220, days: 4, rateScale: 4)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let first = try NightlyAuditTests.night(0, world: world, scratch: scratch)
    let initial = try EndToEnd.AppStore(world: world, clock: first.clock)
    _ = try await EndToEnd.runner(
      scratch: scratch, appStore: initial,
      options: try NightlyAuditTests.options(
        world: world, scratch: scratch, night: first, runId: "night-0")
    ).run()
    initial.stop()

    // A tenth of Apple's 50 a second: 5 a second per endpoint, sandbox alike; the simulator
    // answers 429 to anything more.
    let share = 0.1
    let cap = 5.0
    let night = try NightlyAuditTests.night(3, world: world, scratch: scratch)
    // The simulator's clock moves at most one interval per request it reads it for: a pause of
    // the simulator's own threads on a busy machine does not look like a burst of the client's.
    let appStore = try EndToEnd.AppStore(
      world: world, clock: night.clock, wallClock: RequestPacedClock(step: Int64(1000 / cap)),
      configure: {
        $0.rateLimits = SimulatorRateLimits(
          production: Dictionary(uniqueKeysWithValues: Endpoint.allCases.map { ($0, cap) }),
          sandboxShare: 1)
      },
      client: {
        $0.rateLimits = RateLimits(
          production: Dictionary(
            uniqueKeysWithValues: Endpoint.allCases.map { ($0, cap / share) }),
          sandboxShare: 1, share: share)
      })
    defer { appStore.stop() }
    let outcome = try await EndToEnd.runner(
      scratch: scratch, appStore: appStore,
      options: try NightlyAuditTests.options(
        world: world, scratch: scratch, night: night, runId: "night-1")
    ).run()
    #expect(
      outcome.refresh.stillDue == 0 && outcome.refresh.refreshed > 10,
      "\(outcome.refresh.refreshed) refreshed")
    let problems = NightlyAuditTests.mismatches(try outcome.run.comparisons(), night.expected)
    #expect(problems.isEmpty, "\(problems.prefix(6))")

    let log = appStore.embedded.server.requestLog()
    #expect(log.allSatisfy { $0.status != 429 }, "the simulator refused a request over the cap")
    // Per endpoint and environment, never more than the cap in any second, with one request
    // of slack for the time between a request's arrival and the instant it is logged.
    let groups = Dictionary(grouping: log) { "\($0.environment) \($0.endpoint?.rawValue ?? "")" }
    for (name, entries) in groups {
      let instants = entries.map(\.answeredAt.millisecondsSince1970).sorted()
      var busiest = 0
      var start = 0
      for end in instants.indices {
        while instants[end] - instants[start] >= 1000 { start += 1 }
        busiest = max(busiest, end - start + 1)
      }
      #expect(busiest <= Int(cap) + 1, "\(name): \(busiest) requests in one second")
    }
    // The run says what it was capped at and what it measured.
    #expect(outcome.run.summary.rateShare == share)
    for endpoint in outcome.run.summary.requests {
      #expect(endpoint.rateCap == cap, "\(endpoint.endpoint)")
      #expect((endpoint.busiestSecond ?? .max) <= Int(cap), "\(endpoint.endpoint)")
    }
  }
}
