import ArgumentParsing
import Benchmarks
import Foundation
import Terminal

/// `receipt-migrate bench server`.
struct ServerBenchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "server",
    abstract:
      "Requests per second the App Store simulator sustains for history and status calls.",
    discussion: """
      Generates a world, starts the simulator in-process with rate limits off and signing on, \
      makes one pass over every customer (signing every value), then drives history and status \
      calls over loopback keep-alive connections and reports requests per second and latency \
      percentiles. The load generator shares the machine's cores with the server.
      """
  )

  @Option(help: "How many team accounts the generated world has.")
  var accounts: Int = 2_000

  @Option(help: "Connections, each with one request in flight.")
  var concurrency: Int = 64

  @Option(help: "Seconds per timed run.")
  var seconds: Int = 10

  @Option(help: ArgumentHelp("Load generators: sockets, urlsession or both.", valueName: "client"))
  var client: String = "sockets"

  @Option(help: "The world's seed.")
  var seed: UInt64 = 1

  mutating func validate() throws {
    guard accounts > 0, concurrency > 0, seconds > 0 else {
      throw ValidationError("--accounts, --concurrency and --seconds must be positive")
    }
    guard ["sockets", "urlsession", "both"].contains(client) else {
      throw ValidationError("--client must be sockets, urlsession or both")
    }
  }

  func run() async throws {
    var settings = SimulatorServerBenchmark.Settings()
    settings.accounts = accounts
    settings.concurrency = concurrency
    settings.duration = .seconds(seconds)
    settings.seed = seed
    settings.clients =
      client == "both"
      ? [.sockets, .urlsession]
      : [SimulatorServerBenchmark.LoadClient(rawValue: client) ?? .sockets]
    let report = try await SimulatorServerBenchmark.run(settings) {
      StandardError.write("[bench server] \($0)\n")
    }
    print(report.text)
  }
}
