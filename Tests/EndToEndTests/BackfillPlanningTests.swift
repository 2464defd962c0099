import AppStoreServerAPI
import Foundation
import MigrationPipeline
import TestDirectories
import Testing

/// What the backfill asks for when the store already holds part of the answer: ids of one
/// customer spread over several accounts, accounts ingested after their ids were resolved, and
/// ids that were unknown only in the one environment a run was pinned to.
@Suite("End to end: planning the backfill")
struct BackfillPlanningTests {
  /// The world's `accounts.csv` links as (account, Apple Account) pairs.
  private func customersOfAccounts(_ world: String) throws -> [(String, String)] {
    try String(contentsOfFile: "\(world)/accounts.csv", encoding: .utf8)
      .split(whereSeparator: \.isNewline).dropFirst()
      .map { $0.split(separator: ",").map(String.init) }.map { ($0[0], $0[1]) }
  }

  @Test("ids of one customer in other accounts cost nothing; new accounts are linked")
  func laterAccounts() async throws {
    let world = try EndToEnd.world(seed: 26, accounts: 80)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let appStore = try EndToEnd.AppStore(world: world)
    defer { appStore.stop() }
    var options = try EndToEnd.options(world: world, reports: scratch.appendingPathComponent("r"))
    options.backfill.concurrency = 1
    let first = try await EndToEnd.runner(scratch: scratch, appStore: appStore, options: options)
      .run()
    let matched = try #require(first.run.comparisons().first { $0.category == .match })
    let seed = try #require(matched.evidence.seedIds.first?.id)

    // A second team account holding one of that account's ids, ingested later.
    let extra = scratch.appendingPathComponent("extra.csv")
    try Data("account_id,original_transaction_id\nz-later,\(seed)\n".utf8).write(to: extra)
    options.legacyPaths.append(extra.path)
    let before = appStore.embedded.server.statistics().totalRequests
    let second = try await EndToEnd.runner(scratch: scratch, appStore: appStore, options: options)
      .run()
    #expect(appStore.embedded.server.statistics().totalRequests == before, "no request needed")
    let later = try #require(second.run.comparisons().first { $0.accountId == "z-later" })
    #expect(later.category == .sharedAppleAccount, "\(later.explanation)")
    let original = try #require(
      second.run.comparisons().first { $0.accountId == matched.accountId })
    #expect(original.category == .sharedAppleAccount, "\(original.explanation)")
    #expect(second.exitStatus == 0)
  }

  @Test("two accounts whose ids differ only in normalization are both linked by one backfill")
  func equivalentAccountIds() async throws {
    let world = try EndToEnd.world(seed: 26, accounts: 80)
    let appStore = try EndToEnd.AppStore(world: world)
    defer { appStore.stop() }
    let first = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(first) }
    var options = try EndToEnd.options(world: world, reports: first.appendingPathComponent("r"))
    let matched = try #require(
      try await EndToEnd.runner(scratch: first, appStore: appStore, options: options).run()
        .run.comparisons().first { $0.category == .match })
    let seed = try #require(matched.evidence.seedIds.first?.id)

    // A fresh store where both accounts hold that id from the start: one backfill groups them.
    // Swift's `String` calls the two ids equal; the store keeps two accounts. The backfill's
    // last step links every account again, so this held before the grouping kept both too
    // (EquivalentAccountIdTests checks the grouping itself); it guards the outcome users see.
    let ids = ["jos\u{E9}@example.com", "jose\u{301}@example.com"]
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let extra = scratch.appendingPathComponent("extra.csv")
    try Data("account_id,original_transaction_id\n\(ids[0]),\(seed)\n\(ids[1]),\(seed)\n".utf8)
      .write(to: extra)
    options.reportsDirectory = scratch.appendingPathComponent("r").path
    options.legacyPaths.append(extra.path)
    let outcome = try await EndToEnd.runner(scratch: scratch, appStore: appStore, options: options)
      .run()
    let comparisons = try outcome.run.comparisons()
    for id in ids {
      let comparison = try #require(
        comparisons.first { Array($0.accountId.utf8) == Array(id.utf8) }, "\(Array(id.utf8))")
      #expect(comparison.evidence.customers.count == 1, "\(comparison.explanation)")
      #expect(comparison.category == .sharedAppleAccount, "\(comparison.explanation)")
    }
  }

  @Test("ids unknown in the one environment asked are asked again when a run asks both")
  func pinnedEnvironment() async throws {
    let world = try EndToEnd.world(seed: 27, accounts: 120)
    let expected = try EndToEnd.expected(world: world)
    let sandboxOnly = expected.filter { $0.value.category == "sandbox_only" }.map(\.key)
    try #require(!sandboxOnly.isEmpty, "the world must hold sandbox-only accounts")
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let appStore = try EndToEnd.AppStore(world: world)
    defer { appStore.stop() }
    var options = try EndToEnd.options(world: world, reports: scratch.appendingPathComponent("r"))
    options.backfill.environment = .production
    let pinned = try await EndToEnd.runner(scratch: scratch, appStore: appStore, options: options)
      .run()
    for account in sandboxOnly {
      let comparison = try #require(pinned.run.comparisons().first { $0.accountId == account })
      #expect(comparison.category == .unknownToAppStore)
      #expect(comparison.explanation.hasSuffix("in production (the only environment asked)"))
    }

    options.backfill.environment = nil
    let both = try await EndToEnd.runner(scratch: scratch, appStore: appStore, options: options)
      .run()
    let mismatches = try EndToEnd.mismatches(both.run.comparisons(), world: world)
    #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
  }
}
