import AppStoreSimulator
import ArgumentParsing
import CryptoSupport
import Foundation
import Terminal

/// `receipt-migrate simulator generate`.
struct SimulatorGenerateCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "generate",
    abstract: "Generate a world of customers and the legacy data its team would have stored.",
    discussion: """
      Writes world.json (the App Store truth), receipts.ndjson (the team's stored verifyReceipt \
      responses), accounts.csv, products.csv, current-entitlements.csv (the team's own table, \
      with legacy bugs) and expected.csv (the category a correct comparison must find for every \
      account). The same seed and count give the same files, but for the signatures of raw \
      receipts (see Documentation/Simulator.md). A folder that is not empty is refused unless \
      --force is given; its signing/ folder is then kept and reused.
      """
  )

  @Option(help: "How many team accounts to generate.")
  var accounts: Int = 300

  @Option(help: "The seed.")
  var seed: UInt64 = 1

  @Option(help: ArgumentHelp("The output directory.", valueName: "dir"))
  var out: String

  @Option(
    help: ArgumentHelp(
      "Go on this many days past the world's clock: renewals, churn, billing trouble, refunds "
        + "and reversals, upgrades, family changes and new purchases, each with its "
        + "notification (see simulator serve --clock and simulator expected --at).",
      valueName: "days"))
  var daysAfter: Int = 0

  @Option(
    help: ArgumentHelp(
      "With --days-after: purchases after the clock carry the UUID v5 of their customer's "
        + "account id in this namespace as appAccountToken (what audit --derive-tokens follows).",
      valueName: "uuid"))
  var tokenNamespace: String?

  @Flag(help: "Overwrite the generated files of a folder that is not empty.")
  var force = false

  /// How many accounts each part of the world holds while it is written.
  static let partSize = 4_096

  mutating func validate() throws {
    guard accounts > 0 else { throw ValidationError("--accounts must be at least 1") }
    guard (0...3650).contains(daysAfter) else {
      throw ValidationError("--days-after must be between 0 and 3650")
    }
    if let tokenNamespace, NameBasedUUID.bytes(of: tokenNamespace) == nil {
      throw ValidationError("--token-namespace '\(tokenNamespace)' is not a UUID")
    }
  }

  func run() async throws {
    if !force, let entries = try? FileManager.default.contentsOfDirectory(atPath: out),
      !entries.isEmpty
    {
      throw ValidationError(
        "\(out) is not empty (\(entries.sorted().prefix(3).joined(separator: ", "))"
          + "\(entries.count > 3 ? ", ..." : "")); generating would overwrite its files. Pass --force "
          + "to overwrite them (its signing/ folder is kept), or choose an empty folder")
    }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: out, isDirectory: &isDirectory),
      !isDirectory.boolValue
    {
      throw ValidationError("\(out) is a file, not a folder; choose a folder for --out")
    }
    let started = ContinuousClock.now
    var configuration = GeneratorConfiguration()
    configuration.daysAfter = daysAfter
    configuration.appAccountTokenNamespace = tokenNamespace
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let writer = try ArchiveWriter(directory: out)
    var counts: [String: Int] = [:]
    var totals = (accounts: 0, customers: 0, transactions: 0)
    let progress = ProgressMeter(
      stage: "generate", unit: "accounts", total: accounts,
      style: .automatic(for: TerminalCapabilities.detect()))
    // One part at a time: memory holds a part (and its rendered records), never the world.
    try WorldGenerator(configuration: configuration).generate(
      accounts: accounts, seed: seed, inPartsOf: Self.partSize
    ) { part in
      for expectation in try writer.append(part) {
        counts[expectation.category.rawValue, default: 0] += 1
      }
      totals.accounts += part.accounts.count
      totals.customers += part.customers.count
      totals.transactions += part.customers.reduce(0) { $0 + $1.transactions.count }
      progress.advance(by: part.accounts.count)
    }
    try writer.finish()
    progress.finish()
    let elapsed = ContinuousClock.now - started
    print(
      "Generated \(NumberFormatting.grouped(totals.accounts)) accounts, \(NumberFormatting.grouped(totals.customers)) customers, "
        + "\(NumberFormatting.grouped(totals.transactions)) transactions in \(DurationFormatting.compact(elapsed)) into \(out)"
    )
    print("Expected categories:")
    for category in ExpectedCategory.allCases where counts[category.rawValue] != nil {
      print(
        "  \(category.rawValue.padding(toLength: 26, withPad: " ", startingAt: 0)) \(counts[category.rawValue] ?? 0)"
      )
    }
  }
}
