import ArgumentParsing
import Benchmarks
import Foundation
import Terminal

/// `receipt-migrate bench audit`.
struct AuditBenchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "audit",
    abstract:
      "What a night of the nightly audit costs: requests and time against the refresh's floor "
      + "and against a full re-backfill.",
    discussion: """
      Generates a world whose timeline goes on --days past its clock, migrates it (night 0: a \
      full backfill from simulator serve at the world's clock, in a child process), then audits \
      it --days later (simulator serve at that clock; the team table the world's legacy logic \
      holds then). Prints the share of customers that changed in the world, the customers due \
      and why, the audit's requests by endpoint against the floor its bookkeeping gives, the \
      same against a full re-backfill, both extrapolated to Apple's 50 requests per second per \
      endpoint and to a million customers, and whether every account matches the simulator's \
      oracle. See Documentation/Performance.md.
      """
  )

  @Option(help: "How many team accounts the generated world has.")
  var accounts: Int = 100_000

  @Option(help: "The world's seed.")
  var seed: UInt64 = 1

  @Option(help: "How many days after the migration the audit runs.")
  var days: Int = 1

  @Option(help: "Requests per second per endpoint on loopback (client and simulator).")
  var rateLimit: Double = 400

  @Option(help: "Milliseconds of latency the simulator adds to every answer.")
  var latency: Int = 20

  @Option(help: "Groups and customers worked on at once (1 to 256).")
  var concurrency: Int = 64

  @Option(
    help: ArgumentHelp(
      "Use and keep this scratch directory (world, store, reports); a world generated there "
        + "before with the same accounts, seed and days is used again.", valueName: "dir"))
  var keep: String?

  mutating func validate() throws {
    guard accounts > 0 else { throw ValidationError("--accounts must be positive") }
    guard (1...365).contains(days) else { throw ValidationError("--days must be 1 to 365") }
    guard rateLimit > 0, rateLimit.isFinite else {
      throw ValidationError("--rate-limit must be a positive number of requests per second")
    }
    guard latency >= 0 else { throw ValidationError("--latency must be 0 or more") }
    guard (1...256).contains(concurrency) else {
      throw ValidationError("--concurrency must be between 1 and 256, not \(concurrency)")
    }
  }

  func run() async throws {
    var settings = AuditBenchmark.Settings(executable: ExecutablePath.current)
    settings.accounts = accounts
    settings.seed = seed
    settings.days = days
    settings.rateLimit = rateLimit
    settings.latencyMilliseconds = latency
    settings.concurrency = concurrency
    settings.directory = keep.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    let report = try await AuditBenchmark.run(settings, observer: TerminalProgressObserver()) {
      StandardError.write("[bench audit] \($0)\n")
    }
    print(report.text)
  }
}
