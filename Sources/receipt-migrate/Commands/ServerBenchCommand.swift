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

      With --world, it measures memory instead: it serves that world (written by simulator \
      generate) with simulator serve in a child process, sends --requests history and status \
      calls over distinct customers in --steps equal steps, and prints the simulator's resident \
      memory when idle, after each step and at its peak.
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

  @Option(
    help: ArgumentHelp(
      "Measure the memory of simulator serve on this world directory.", valueName: "dir"))
  var world: String?

  @Option(help: "With --world: requests to send over distinct customers.")
  var requests: Int = 200_000

  @Option(help: "With --world: how many times memory is read along the way.")
  var steps: Int = 10

  mutating func validate() throws {
    guard requests > 0, steps > 0 else {
      throw ValidationError("--requests and --steps must be positive")
    }
    guard accounts > 0, concurrency > 0, seconds > 0 else {
      throw ValidationError("--accounts, --concurrency and --seconds must be positive")
    }
    guard ["sockets", "urlsession", "both"].contains(client) else {
      throw ValidationError("--client must be sockets, urlsession or both")
    }
  }

  func run() async throws {
    if let world {
      var settings = SimulatorMemoryBenchmark.Settings(
        executable: ExecutablePath.current, world: world)
      settings.requests = requests
      settings.steps = steps
      settings.concurrency = concurrency
      let report = try SimulatorMemoryBenchmark.run(settings) {
        StandardError.write("[bench server] \($0)\n")
      }
      print(report.text)
      return
    }
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
