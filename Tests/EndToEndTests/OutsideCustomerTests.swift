import AppStoreServerAPI
import AppStoreSimulator
import Chronology
import CryptoSupport
import Foundation
import MigrationPipeline
import MigrationStore
import TestDirectories
import Testing

/// Every customer, not only the migrated ones: customers who first buy after the cut-over are
/// followed into their accounts through the team's `appAccountToken`s, or listed as unclaimed;
/// team-table rows for accounts the legacy data does not hold are backfilled from their ids or
/// reported. Night by night through the loopback simulator, against the oracle (this team's
/// code, written apart from the tool), which models the same following.
@Suite("End to end: customers outside the legacy data")
struct OutsideCustomerTests {
  /// The team's namespace for `appAccountToken`s: the app sets a UUID version 5 of the account
  /// id on every purchase after the cut-over.
  static let namespace = "6ba7b811-9dad-11d1-80b4-00c04fd430c8"

  static func world() throws -> String {
    try EndToEnd.timelineWorld(
      seed: 31, accounts: 220, days: 4, rateScale: 4, tokenNamespace: namespace)
  }

  /// A night's expectations, the oracle following tokens or not, and the table then.
  static func night(_ number: Int, world: String, scratch: URL, followsTokens: Bool) throws
    -> NightlyAuditTests.Night
  {
    let setup = try SimulatorSetup.prepare(worldDirectory: world)
    let clock = try EndToEnd.night(number, of: world)
    let files = GeneratedArchive(world: setup.world).expectations(
      at: clock, followsTokens: followsTokens)
    let tablePath = scratch.appendingPathComponent("table-\(number).csv").path
    try Data(files.table.utf8).write(to: URL(fileURLWithPath: tablePath))
    var expected: [String: (String, String)] = [:]
    for line in files.expected.split(separator: "\n").dropFirst() {
      let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      expected[fields[0]] = (fields[1], fields[2])
    }
    return NightlyAuditTests.Night(clock: clock, expected: expected, tablePath: tablePath)
  }

  /// The world's customers who first bought after the clock, by `instant`, that the migration
  /// did not reach (`migrated`): what a token follows, or the run lists as unclaimed.
  static func firstBuyers(world: String, by instant: Timestamp, migrated stored: Set<String>)
    throws -> Set<String>
  {
    let setup = try SimulatorSetup.prepare(worldDirectory: world)
    return Set(
      setup.world.customers.filter { customer in
        !customer.isForgotten && !stored.contains(customer.appTransactionId)
          && customer.transactions.contains {
            $0.appAccountToken != nil && $0.purchaseDate <= instant
          }
      }.map(\.appTransactionId))
  }

  @Test(
    "first buyers after the cut-over: followed through the team's tokens into their accounts, or listed as unclaimed; every night exact"
  )
  func firstBuyersAfterCutover() async throws {
    let world = try Self.world()
    for followsTokens in [true, false] {
      let scratch = try EndToEnd.scratch()
      defer { TemporaryDirectory.remove(scratch) }
      let storePath = scratch.appendingPathComponent("store.sqlite").path
      var followed = 0
      var migrated: Set<String> = []
      for number in 0...3 {
        let night = try Self.night(
          number, world: world, scratch: scratch, followsTokens: followsTokens)
        let appStore = try EndToEnd.AppStore(world: world, clock: night.clock)
        defer { appStore.stop() }
        var options = try NightlyAuditTests.options(
          world: world, scratch: scratch, night: night, runId: "night-\(number)")
        if followsTokens {
          options.tokens = try AccountTokenSource.deriving(namespace: Self.namespace)
        }
        let outcome = try await EndToEnd.runner(
          scratch: scratch, appStore: appStore, options: options
        ).run()
        let problems = NightlyAuditTests.mismatches(
          try outcome.run.comparisons(), night.expected)
        #expect(problems.isEmpty, "night \(number), tokens \(followsTokens): \(problems.prefix(6))")
        followed += outcome.refresh.followedCustomers
        if number == 0 {
          migrated = Set(try EndToEnd.storedCustomers(storePath).byId.values)
          continue
        }
        let unclaimed = Set(outcome.run.unclaimedCustomers.map(\.customerKey))
        let buyers = try Self.firstBuyers(world: world, by: night.clock, migrated: migrated)
        let stored = Set(try EndToEnd.storedCustomers(storePath).byId.values)
        #expect(outcome.run.summary.unclaimedCustomers == unclaimed.count)
        if followsTokens {
          // Every first buyer was followed into its account, and is claimed.
          #expect(buyers.isSubset(of: stored), "night \(number): \(buyers.subtracting(stored))")
          #expect(unclaimed.isDisjoint(with: buyers))
        } else {
          // Every first buyer the migration did not reach is listed as unclaimed.
          #expect(buyers.isSubset(of: unclaimed), "night \(number)")
          #expect(stored.isDisjoint(with: buyers))
        }
      }
      let buyers = try Self.firstBuyers(
        world: world, by: try EndToEnd.night(3, of: world), migrated: migrated)
      #expect(!buyers.isEmpty, "some customers should first buy after the cut-over")
      if followsTokens { #expect(followed == buyers.count) }
    }
  }

  /// Team-table rows for accounts the legacy data does not hold, two of them naming a customer
  /// the legacy data never reached — by `original_transaction_id`, by `app_transaction_id` —
  /// with what the App Store holds for that customer: both backfilled and compared, and their
  /// table matching. Judged by the world's own truth (the simulator's model, written apart from
  /// the comparison) and the oracle for every other account.
  @Test(
    "team-table rows for accounts the legacy data does not hold are backfilled from an original_transaction_id or app_transaction_id column and compared; one without an id is reported; a second run adopts nothing twice"
  )
  func tableAccounts() async throws {
    let world = try EndToEnd.world(seed: 23, accounts: 150)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let setup = try SimulatorSetup.prepare(worldDirectory: world)
    let now = setup.world.now
    // Production customers the legacy data never reached (their accounts hold only error
    // responses), each with something the App Store grants or once granted.
    let reached = Set(
      setup.world.accounts.flatMap { account in
        account.snapshots.filter { $0.style != .errorStatus }.map(\.customer)
      })
    let unreached = setup.world.customers.filter { customer in
      !reached.contains(customer.index) && customer.environment == .production
        && !customer.isForgotten && customer.transactions.contains { $0.ownership == .purchased }
        && !customer.truthEntitlements(at: now, products: setup.world.products).isEmpty
    }
    try #require(unreached.count >= 2, "the world should hold two customers no legacy data reached")
    let byOriginal = unreached[0]
    let byApp = unreached[1]
    /// The account's rows as the App Store holds its customer now.
    func rows(_ account: String, _ customer: Customer, naming ids: (TruthEntitlement) -> String)
      -> [String]
    {
      customer.truthEntitlements(at: now, products: setup.world.products).values
        .sorted { $0.productId < $1.productId }
        .map { truth in
          "\(account),\(truth.productId),\(truth.status.rawValue),"
            + "\(truth.expiresDate.map { String($0.millisecondsSince1970) } ?? ""),\(ids(truth))"
        }
    }
    let original = try String(
      contentsOfFile: "\(world)/current-entitlements.csv", encoding: .utf8)
    var lines = original.split(separator: "\n").map(String.init)
    lines[0] += ",original_transaction_id,app_transaction_id"
    for index in lines.indices.dropFirst() { lines[index] += ",," }
    lines += rows("post-cutover-1", byOriginal) { "\($0.originalTransactionId)," }
    lines += rows("post-cutover-3", byApp) { _ in ",\(byApp.appTransactionId)" }
    lines.append("post-cutover-2,com.example.plus.monthly,active,,,")
    let table = scratch.appendingPathComponent("table.csv").path
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: table))

    let appStore = try EndToEnd.AppStore(world: world)
    defer { appStore.stop() }
    var options = try EndToEnd.options(world: world, reports: scratch.appendingPathComponent("r"))
    options.currentEntitlementsPath = table
    for run in 0...1 {
      options.runId = "run-\(run)"
      let outcome = try await EndToEnd.runner(
        scratch: scratch, appStore: appStore, options: options
      ).run()
      // Adopted once; the account without an id reported on every run.
      #expect(outcome.run.summary.tableAccountsAdopted == (run == 0 ? 2 : 0))
      #expect(outcome.run.tableOnlyAccounts == ["post-cutover-2"])
      #expect(outcome.run.summary.tableOnlyAccounts == 1)
      let comparisons = try outcome.run.comparisons()
      for (account, customer) in [("post-cutover-1", byOriginal), ("post-cutover-3", byApp)] {
        let adopted = try #require(comparisons.first { $0.accountId == account })
        #expect(adopted.category == .idsOnly, "\(adopted.category): \(adopted.explanation)")
        #expect(adopted.tableCategory == .match, "\(account): \(adopted.explanation)")
        #expect(adopted.evidence.customers.map(\.key) == [customer.appTransactionId])
        #expect(Set(adopted.evidence.seedIds.map(\.source)) == ["team_table"])
      }
      // Every other account as the world's expectations say.
      let others = comparisons.filter { !$0.accountId.hasPrefix("post-cutover") }
      let problems = try EndToEnd.mismatches(others, world: world)
      #expect(problems.isEmpty, "run \(run): \(problems.prefix(6))")
    }
  }

  /// The team's mapping file for a world: every account with the token its app sets (UUID
  /// version 5 of the account id in ``namespace``).
  static func mappingFile(world: String, scratch: URL) throws -> String {
    let setup = try SimulatorSetup.prepare(worldDirectory: world)
    let namespace = try #require(NameBasedUUID.bytes(of: Self.namespace))
    var lines = ["account_id,app_account_token"]
    for account in setup.world.accounts {
      lines.append(
        "\(account.id),"
          + NameBasedUUID.text(of: NameBasedUUID.version5(name: account.id, namespace: namespace)))
    }
    let path = scratch.appendingPathComponent("tokens.csv").path
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// Nights 0–2 without a mapping, night 3 with the team's mapping file: the customers listed
  /// as unclaimed before are followed then. Judged by the oracle (with following) and the
  /// world's own purchases.
  @Test(
    "customers listed as unclaimed are followed once a token mapping resolves their token, and the night is exact"
  )
  func unclaimedFollowedLater() async throws {
    let world = try Self.world()
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let storePath = scratch.appendingPathComponent("store.sqlite").path
    var migrated: Set<String> = []
    var listed: Set<String> = []
    for number in 0...3 {
      // Nights 0 to 2 without a mapping; night 3 with the team's mapping file.
      let withMapping = number == 3
      let night = try Self.night(
        number, world: world, scratch: scratch, followsTokens: withMapping)
      let appStore = try EndToEnd.AppStore(world: world, clock: night.clock)
      defer { appStore.stop() }
      var options = try NightlyAuditTests.options(
        world: world, scratch: scratch, night: night, runId: "night-\(number)")
      if withMapping {
        options.tokens = .file(try Self.mappingFile(world: world, scratch: scratch))
      }
      let outcome = try await EndToEnd.runner(
        scratch: scratch, appStore: appStore, options: options
      ).run()
      let problems = NightlyAuditTests.mismatches(try outcome.run.comparisons(), night.expected)
      #expect(problems.isEmpty, "night \(number): \(problems.prefix(6))")
      let unclaimed = Set(outcome.run.unclaimedCustomers.map(\.customerKey))
      if number == 0 {
        migrated = Set(try EndToEnd.storedCustomers(storePath).byId.values)
        continue
      }
      let buyers = try Self.firstBuyers(world: world, by: night.clock, migrated: migrated)
      let stored = Set(try EndToEnd.storedCustomers(storePath).byId.values)
      if withMapping {
        // Those listed on earlier nights, and tonight's, are followed and listed no more.
        #expect(!listed.isEmpty)
        #expect(listed.isSubset(of: stored), "\(listed.subtracting(stored))")
        #expect(buyers.isSubset(of: stored))
        #expect(unclaimed.isDisjoint(with: buyers))
        #expect(outcome.refresh.followedCustomers == buyers.count)
      } else {
        #expect(buyers.isSubset(of: unclaimed))
        listed.formUnion(unclaimed.intersection(buyers))
      }
    }
  }

  /// Half the feed fails verification, first purchases among it: their customers are found only
  /// by asking the App Store about the transaction an invalid payload names. Judged by the oracle
  /// (with following), the world's purchases and the simulator's request log.
  @Test(
    "a first purchase whose notification fails verification is looked up at the App Store and followed; every night exact"
  )
  func invalidNotificationAboutFirstBuyer() async throws {
    let world = try Self.world()
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let storePath = scratch.appendingPathComponent("store.sqlite").path
    // Two notifications a page, the first of each with a broken signature: half the feed fails
    // verification, first purchases among it.
    let plan = try FaultPlan.parse(faults: "notifications:bad-signature=1", latency: nil)
    var migrated: Set<String> = []
    var lookups = 0
    for number in 0...3 {
      let night = try Self.night(number, world: world, scratch: scratch, followsTokens: true)
      let appStore = try EndToEnd.AppStore(world: world, clock: night.clock) {
        if number > 0 {
          $0.faults = plan
          $0.pageSize = 2
        }
      }
      defer { appStore.stop() }
      var options = try NightlyAuditTests.options(
        world: world, scratch: scratch, night: night, runId: "night-\(number)")
      options.tokens = try AccountTokenSource.deriving(namespace: Self.namespace)
      let outcome = try await EndToEnd.runner(
        scratch: scratch, appStore: appStore, options: options
      ).run()
      let problems = NightlyAuditTests.mismatches(try outcome.run.comparisons(), night.expected)
      #expect(problems.isEmpty, "night \(number): \(problems.prefix(6))")
      lookups += outcome.refresh.transactionLookups
      if number == 0 {
        migrated = Set(try EndToEnd.storedCustomers(storePath).byId.values)
        continue
      }
      #expect(outcome.refresh.invalidNotifications > 0, "night \(number)")
      // One look-up per invalid notification about a customer the store did not hold, at most.
      let log = appStore.embedded.server.requestLog()
      #expect(
        log.count(where: { $0.endpoint == .transactionInfo })
          == outcome.refresh.transactionLookups)
      let buyers = try Self.firstBuyers(world: world, by: night.clock, migrated: migrated)
      let stored = Set(try EndToEnd.storedCustomers(storePath).byId.values)
      #expect(buyers.isSubset(of: stored), "night \(number): \(buyers.subtracting(stored))")
      #expect(Set(outcome.run.unclaimedCustomers.map(\.customerKey)).isDisjoint(with: buyers))
    }
    #expect(lookups > 0, "some first purchase should be named only by an invalid notification")
  }
}
