import AppStoreServerAPI
import AppStoreSimulator
import Chronology
import Entitlements
import Foundation
import LegacyReceipts
import MigrationPipeline
import MigrationStore
import TestDirectories
import Testing

/// `link` end to end in one process: the real pipeline into a real SQLite store, the real
/// simulator on loopback ports, the planner, the journal and the stage. The App Store side is
/// judged by the simulator's world — what the generator made and what the server changed —
/// never by the planner's own audit: which purchases are consumables, revoked, family-shared or
/// assigned, and which transactions carry which token, come from the world's truth.
@Suite("End to end: link")
struct LinkTests {
  static let first = "6f3c1a52-9b0e-4d7a-8f21-5c4e3b2a1d09"
  static let second = "0b6b2f4e-5a71-4c2d-9e83-7f1a2b3c4d5e"
  static let inApp = "c0ffee00-1234-4abc-8def-0123456789ab"

  /// A generated world in which some production purchases are owned `ASSIGNED` (the generator
  /// makes none): every fifth customer's first one-time or subscription purchase.
  static func worldWithAssigned(in directory: URL, timelineDays: Int = 0) throws -> String {
    var configuration = GeneratorConfiguration()
    configuration.daysAfter = timelineDays
    var world = WorldGenerator(configuration: configuration).generate(accounts: 120, seed: 61)
    for index in world.customers.indices where index % 5 == 0 {
      let customer = world.customers[index]
      guard customer.environment == .production, !customer.isForgotten,
        let original = customer.transactions.first(where: {
          $0.ownership == .purchased && $0.transactionId == $0.originalTransactionId
            && $0.kind != .consumable
        })?.originalTransactionId
      else { continue }
      for offset in customer.transactions.indices
      where customer.transactions[offset].originalTransactionId == original {
        world.customers[index].transactions[offset].ownership = .other("ASSIGNED")
      }
    }
    let path = directory.appendingPathComponent("world").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    _ = try GeneratedArchive(world: world).write(to: path)
    return path
  }

  /// The world's purchases (original transaction id → its transactions bought by `instant`).
  static func purchases(_ world: AppStoreSimulator.World, at instant: Timestamp)
    -> [String: [SimulatedTransaction]]
  {
    var purchases: [String: [SimulatedTransaction]] = [:]
    for customer in world.customers where !customer.isForgotten {
      for transaction in customer.transactions where transaction.purchaseDate <= instant {
        purchases[transaction.originalTransactionId, default: []].append(transaction)
      }
    }
    return purchases.mapValues { $0.sorted { $0.purchaseDate < $1.purchaseDate } }
  }

  /// Migrates a world into a fresh store and returns the store's path.
  static func migrate(world: String, scratch: URL, appStore: EndToEnd.AppStore) async throws
    -> String
  {
    let options = try EndToEnd.options(world: world, reports: scratch.appendingPathComponent("r"))
    _ = try await EndToEnd.runner(scratch: scratch, appStore: appStore, options: options).run()
    return scratch.appendingPathComponent("store.sqlite").path
  }

  /// Plans with a derived mapping and carries the apply out; returns the run and its journal.
  static func apply(
    namespace: String, storePath: String, appStore: EndToEnd.AppStore, runId: String,
    asOf: Timestamp
  ) async throws -> (run: LinkRunRow?, writes: [LinkWriteRow], outcome: LinkOutcome) {
    let store = try MigrationStore(path: storePath, now: { SystemTime.now().millisecondsSince1970 })
    defer { try? store.close() }
    let mapping = try AccountTokenSource.derived(namespace: namespace).load(
      accounts: try store.accountIds()
    ).mapping
    let plan = try LinkPlanner(store: store, mapping: mapping, asOf: asOf).plan()
    let starter = LinkRunStarter(store: store, now: SystemTime.now)
    guard
      let run = try starter.startApply(
        plan: plan, mapping: namespace, runId: runId, target: LinkTarget(appStore.connected))
    else { return (nil, [], LinkOutcome()) }
    let outcome = try await LinkStage(
      store: try MigrationStore(path: storePath, now: { 0 }), client: appStore.connected.client,
      now: SystemTime.now
    ).carryOut(run)
    return (run, try store.linkJournal.writes(runId: run.id), outcome)
  }

  @Test(
    "the plan writes only relevant purchases: consumables, revoked, family-shared and assigned ones keep their tokens"
  )
  func relevantOnly() async throws {
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let world = try Self.worldWithAssigned(in: scratch)
    let appStore = try EndToEnd.AppStore(world: world)
    defer { appStore.stop() }
    let storePath = try await Self.migrate(world: world, scratch: scratch, appStore: appStore)
    let generated = try SimulatorSetup.prepare(worldDirectory: world).world
    let (_, writes, outcome) = try await Self.apply(
      namespace: Self.first, storePath: storePath, appStore: appStore, runId: "link-1",
      asOf: generated.now)
    #expect(outcome.failed == 0)
    let before = Self.purchases(generated, at: generated.now)
    let after = Self.purchases(try appStore.embedded.server.world(), at: generated.now)
    let year = 365 * Timestamp.millisecondsPerDay

    var reasons: [String: Int] = [:]
    for write in writes {
      let purchase = try #require(before[write.originalTransactionId])
      let original = try #require(purchase.first)
      let latest = try #require(purchase.last)
      let isRevoked = latest.revocation(at: generated.now) != nil
      let lapsed: Bool
      switch latest.kind {
      case .autoRenewable:
        lapsed =
          (latest.expiresDate.map { $0.millisecondsSince1970 } ?? .max)
          < generated.now.millisecondsSince1970 - year
      case .nonRenewing:
        lapsed =
          latest.purchaseDate.millisecondsSince1970 < generated.now.millisecondsSince1970 - year
      default:
        lapsed = false
      }
      switch write.state {
      case .confirmed:
        #expect(original.kind != .consumable, "\(write.originalTransactionId)")
        #expect(original.ownership == .purchased && !isRevoked && !lapsed)
        #expect(after[write.originalTransactionId]?.last?.appAccountToken == write.newToken)
      case .skipped:
        let reason = try #require(write.reason)
        reasons[reason, default: 0] += 1
        switch LinkSkipReason(rawValue: reason) {
        case .consumable?: #expect(original.kind == .consumable)
        case .revoked?: #expect(isRevoked)
        case .assigned?: #expect(original.ownership == .other("ASSIGNED"))
        case .lapsed?: #expect(lapsed)
        case .severalAccounts?, .notOriginal?: break
        default: Issue.record("unexpected skip \(reason) of \(write.originalTransactionId)")
        }
        #expect(
          after[write.originalTransactionId]?.map(\.appAccountToken)
            == purchase.map(\.appAccountToken), "a skipped purchase was written")
      default:
        Issue.record("\(write.originalTransactionId) ended \(write.state)")
      }
    }
    // Nothing outside the plan changed: family-shared purchases are never even planned.
    let planned = Set(writes.filter { $0.state == .confirmed }.map(\.originalTransactionId))
    for (id, purchase) in before where !planned.contains(id) {
      #expect(after[id]?.map(\.appAccountToken) == purchase.map(\.appAccountToken), "\(id)")
    }
    #expect(before.values.contains { $0.first?.ownership == .familyShared })
    // Every kind of exclusion was met, so the checks above could fail.
    for reason in ["consumable", "revoked", "assigned"] {
      #expect(reasons[reason, default: 0] > 0, "no \(reason) purchase in the plan: \(reasons)")
    }
    #expect(outcome.sent == planned.count && outcome.sent > 20)
  }

  @Test("a token set at Apple between the last fetch and the apply is not overwritten")
  func changedSinceFetch() async throws {
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let world = try EndToEnd.world(seed: 62, accounts: 60)
    let appStore = try EndToEnd.AppStore(world: world)
    defer { appStore.stop() }
    let storePath = try await Self.migrate(world: world, scratch: scratch, appStore: appStore)
    let generated = try SimulatorSetup.prepare(worldDirectory: world).world

    // Two planned purchases change at Apple after the fetch: one to another token (as a
    // purchase made in the app with another account's token would), one to the very token
    // the plan would write.
    let store = try MigrationStore(path: storePath, now: { 0 })
    let mapping = try AccountTokenSource.derived(namespace: Self.first).load(
      accounts: try store.accountIds()
    ).mapping
    let plan = try LinkPlanner(store: store, mapping: mapping, asOf: generated.now).plan()
    try store.close()
    let targets = Array(plan.sendable.prefix(2))
    try #require(targets.count == 2)
    let client = appStore.connected.client
    try await client.setAppAccountToken(
      Self.inApp, forOriginalTransactionId: targets[0].purchase.originalTransactionId,
      environment: .production)
    try await client.setAppAccountToken(
      targets[1].newToken, forOriginalTransactionId: targets[1].purchase.originalTransactionId,
      environment: .production)

    let (_, writes, outcome) = try await Self.apply(
      namespace: Self.first, storePath: storePath, appStore: appStore, runId: "link-1",
      asOf: generated.now)
    let byId = Dictionary(uniqueKeysWithValues: writes.map { ($0.originalTransactionId, $0) })
    let changed = try #require(byId[targets[0].purchase.originalTransactionId])
    #expect(changed.state == .skipped && changed.reason == "changed_since_plan")
    #expect(changed.answer?.contains(Self.inApp) == true, "\(changed.answer ?? "")")
    let already = try #require(byId[targets[1].purchase.originalTransactionId])
    #expect(already.state == .skipped && already.reason == "already_set")
    #expect(outcome.skipped == [.changedSincePlan: 1, .alreadySet: 1])
    // Apple still holds the token set after the fetch.
    let held = Self.purchases(try appStore.embedded.server.world(), at: generated.now)
    #expect(held[changed.originalTransactionId]?.last?.appAccountToken == Self.inApp)
  }

  @Test(
    "an undo after renewals and an in-app change restores exactly what it says; renewals since keep the applied token"
  )
  func undoAfterRenewal() async throws {
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let world = try EndToEnd.timelineWorld(seed: 63, accounts: 80, days: 40, rateScale: 1)
    let generated = try SimulatorSetup.prepare(worldDirectory: world).world
    let tokenLog = scratch.appendingPathComponent("tokens.ndjson").path
    let night0 = generated.now
    let night35 = night0.adding(milliseconds: 35 * Timestamp.millisecondsPerDay)

    // Night 0: migrate, then two mappings, the second replacing the first.
    let early = try EndToEnd.AppStore(world: world, clock: night0) { $0.tokenLogPath = tokenLog }
    let storePath = try await Self.migrate(world: world, scratch: scratch, appStore: early)
    let (firstRun, firstWrites, _) = try await Self.apply(
      namespace: Self.first, storePath: storePath, appStore: early, runId: "link-1", asOf: night0)
    try #require(firstRun != nil)
    let (secondRun, secondWrites, _) = try await Self.apply(
      namespace: Self.second, storePath: storePath, appStore: early, runId: "link-2",
      asOf: night0)
    early.stop()
    let replaced = secondWrites.filter { $0.state == .confirmed }
    #expect(replaced.count == firstWrites.count { $0.state == .confirmed })
    #expect(replaced.allSatisfy { $0.oldToken != nil }, "the second mapping replaces the first")

    // Night 35: the world served again with the tokens it was given; renewals happened. One
    // purchase that did not renew gets a token in the app.
    let late = try EndToEnd.AppStore(world: world, clock: night35) { $0.tokenLogPath = tokenLog }
    defer { late.stop() }
    let atNight35 = Self.purchases(try late.embedded.server.world(), at: night35)
    let renewed = Set(
      replaced.filter { write in
        (atNight35[write.originalTransactionId]?.last?.purchaseDate ?? night0) > night0
      }.map(\.originalTransactionId))
    #expect(renewed.count > 3, "too few renewals to judge: \(renewed.count)")
    let changed = try #require(
      replaced.first { !renewed.contains($0.originalTransactionId) && !$0.isSubscription }
        ?? replaced.first { !renewed.contains($0.originalTransactionId) })
    try await late.connected.client.setAppAccountToken(
      Self.inApp, forOriginalTransactionId: changed.originalTransactionId,
      environment: AppStoreEnvironment(rawValue: changed.environment))

    let store = try MigrationStore(path: storePath, now: { 0 })
    defer { try? store.close() }
    let second = try #require(secondRun)
    let undoRun = try #require(
      try LinkRunStarter(store: store, now: SystemTime.now).startUndo(
        of: second.id, runId: "undo-2", target: LinkTarget(late.connected)))
    let outcome = try await LinkStage(
      store: try MigrationStore(path: storePath, now: { 0 }), client: late.connected.client,
      now: SystemTime.now
    ).carryOut(undoRun)
    let undone = try store.linkJournal.writes(runId: "undo-2")
    let after = Self.purchases(try late.embedded.server.world(), at: night35)

    var keeping = 0
    for write in undone {
      let purchase = try #require(after[write.originalTransactionId])
      if write.originalTransactionId == changed.originalTransactionId {
        #expect(write.state == .skipped && write.reason == "token_replaced_since")
        #expect(purchase.last?.appAccountToken == Self.inApp, "the in-app token was overwritten")
        continue
      }
      #expect(write.state == .confirmed, "\(write.originalTransactionId): \(write.answer ?? "")")
      // The latest transaction carries the restored token; those bought from the apply's latest
      // up to it keep the second mapping's.
      #expect(purchase.last?.appAccountToken == write.newToken)
      let start = try #require(
        purchase.first { $0.transactionId == write.latestTransactionId }?.purchaseDate)
      let kept = purchase.dropLast().filter { $0.purchaseDate >= start }
      #expect(kept.allSatisfy { $0.appAccountToken == write.oldToken })
      #expect(kept.isEmpty != renewed.contains(write.originalTransactionId))
      keeping += kept.count
    }
    #expect(outcome.transactionsKeepingToken == keeping && keeping >= renewed.count)
    // The apply's journal says which writes the undo restored.
    let applied = try store.linkJournal.writes(runId: "link-2")
    #expect(applied.count { $0.state == .undone } == undone.count { $0.state == .confirmed })
    #expect(
      applied.first { $0.originalTransactionId == changed.originalTransactionId }?.state
        == .confirmed)
  }

  @Test("a store is linked, resumed and undone only against the App Store its data came from")
  func sameAppStore() async throws {
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let world = try EndToEnd.world(seed: 64, accounts: 30)
    let other = try EndToEnd.world(seed: 65, accounts: 30)
    let appStore = try EndToEnd.AppStore(world: world)
    defer { appStore.stop() }
    let storePath = try await Self.migrate(world: world, scratch: scratch, appStore: appStore)
    let stranger = try EndToEnd.AppStore(world: other)
    defer { stranger.stop() }
    let store = try MigrationStore(path: storePath, now: { 0 })
    defer { try? store.close() }
    #expect(throws: StoreProvenance.Mismatch.self) {
      try StoreProvenance.check(
        store, source: stranger.connected.source, identity: stranger.connected.identity)
    }
    #expect(
      try StoreProvenance.check(
        store, source: appStore.connected.source, identity: appStore.connected.identity)
        != nil)
    let generated = try SimulatorSetup.prepare(worldDirectory: world).world
    let (run, _, _) = try await Self.apply(
      namespace: Self.first, storePath: storePath, appStore: appStore, runId: "link-1",
      asOf: generated.now)
    let applied = try #require(run)
    #expect {
      try LinkRunStarter(store: store, now: SystemTime.now).startUndo(
        of: applied.id, runId: "undo-1", target: LinkTarget(stranger.connected))
    } throws: { "\($0)".contains("wrote to") }
  }
}
