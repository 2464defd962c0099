import AppStoreServerAPI
import ArgumentParsing
import Benchmarks
import Foundation
import Terminal

/// `receipt-migrate bench backfill`.
struct BackfillBenchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "backfill",
    abstract:
      "The main job over a generated world against a rate-limited simulator: throughput, "
      + "requests per customer, 429s, peak memory, compare and report time.",
    discussion: """
      Generates a world (simulator generate, timed apart), serves it with simulator serve in a \
      child process with the rate limit on history and status in both environments and the \
      added latency, then runs ingest → backfill → compare → report in this process with a \
      client paced to the same limit. Prints accounts/s, requests/s per endpoint against the \
      limit, requests per customer against the floor the store allows, 429s, the run's peak \
      memory (without the simulator) and the time to compare and report, each with its target, \
      and this process's CPU per request. --client both runs it twice over one world, with the \
      socket client and with URLSession, and prints their CPU per request side by side. See \
      Documentation/Performance.md.
      """
  )

  @Option(help: "How many team accounts the generated world has.")
  var accounts: Int = 20_000

  @Option(help: "The world's seed.")
  var seed: UInt64 = 1

  @Option(help: "Requests per second per endpoint and environment (client and simulator).")
  var rateLimit: Double = 400

  @Option(help: "Milliseconds of latency the simulator adds to every answer.")
  var latency: Int = 20

  @Option(help: "Groups worked on at once, and the client's most requests in flight (1 to 256).")
  var concurrency: Int = 64

  @Option(
    help: ArgumentHelp(
      "The HTTP client: sockets (the default client), urlsession, or both to compare them.",
      valueName: "client"))
  var client: String = "sockets"

  @Option(
    help: ArgumentHelp(
      "Use and keep this scratch directory (world, store, reports); a world generated there "
        + "before with the same accounts and seed is used again.", valueName: "dir"))
  var keep: String?

  mutating func validate() throws {
    guard accounts > 0 else { throw ValidationError("--accounts must be positive") }
    guard rateLimit > 0, rateLimit.isFinite else {
      throw ValidationError("--rate-limit must be a positive number of requests per second")
    }
    guard latency >= 0 else { throw ValidationError("--latency must be 0 or more") }
    guard (1...256).contains(concurrency) else {
      throw ValidationError("--concurrency must be between 1 and 256, not \(concurrency)")
    }
    guard client == "both" || HTTPClientChoice(rawValue: client) != nil else {
      throw ValidationError("--client must be sockets, urlsession or both, not \(client)")
    }
  }

  func run() async throws {
    var settings = BackfillBenchmark.Settings(executable: ExecutablePath.current)
    settings.accounts = accounts
    settings.seed = seed
    settings.rateLimit = rateLimit
    settings.latencyMilliseconds = latency
    settings.concurrency = concurrency
    settings.directory = keep.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    let log: (String) -> Void = { StandardError.write("[bench backfill] \($0)\n") }
    guard client == "both" else {
      settings.client = HTTPClientChoice(rawValue: client) ?? .sockets
      let report = try await BackfillBenchmark.run(
        settings, observer: TerminalProgressObserver(), log: log)
      print(report.text)
      return
    }
    let reports = try await BackfillClientComparison.run(
      settings, clients: [.urlsession, .sockets], observer: TerminalProgressObserver(), log: log)
    for report in reports { print(report.text + "\n") }
    print(BackfillClientComparison.text(reports))
  }
}
