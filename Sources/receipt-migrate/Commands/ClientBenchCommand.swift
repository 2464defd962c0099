import ArgumentParsing
import Benchmarks
import Foundation
import Terminal

/// `receipt-migrate bench client`: the HTTP client's own CPU per request, sockets and URLSession.
struct ClientBenchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "client",
    abstract: "CPU the HTTP client itself spends per request: the socket client and URLSession.",
    discussion: """
      Generates a world, starts the simulator in a child process with rate limits off, makes one \
      pass over every production customer (history and status) so every answer is signed, then \
      sends rounds of the same requests through each HTTP client in turn — no verification, no \
      store — and divides this process's CPU by the requests answered.
      """
  )

  @Option(help: "How many team accounts the generated world has.")
  var accounts: Int = 2_000

  @Option(help: "Requests in flight.")
  var concurrency: Int = 16

  @Option(help: "Requests per round.")
  var requests: Int = 5_000

  @Option(help: "Rounds per client, taking turns.")
  var rounds: Int = 3

  @Option(help: "The world's seed.")
  var seed: UInt64 = 1

  mutating func validate() throws {
    guard accounts > 0, concurrency > 0, requests > 0, rounds > 0 else {
      throw ValidationError("--accounts, --concurrency, --requests and --rounds must be positive")
    }
  }

  func run() async throws {
    var settings = ClientCostBenchmark.Settings(executable: ExecutablePath.current)
    settings.accounts = accounts
    settings.concurrency = concurrency
    settings.requestsPerRound = requests
    settings.rounds = rounds
    settings.seed = seed
    let report = try await ClientCostBenchmark.run(settings) {
      StandardError.write("[bench client] \($0)\n")
    }
    print(report.text)
  }
}
