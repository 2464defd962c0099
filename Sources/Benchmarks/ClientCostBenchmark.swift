import AppStoreServerAPI
import AppStoreSimulator
import Chronology
import Foundation

/// `bench client`: the CPU the HTTP client itself spends per request, the project's socket client
/// beside Foundation's URLSession, in one run.
///
/// `bench backfill` divides the whole backfill's CPU by its requests, which counts verifying
/// every signed value and storing every page too. This benchmark sends the same history and
/// status requests through each `HTTPTransport` alone — no JWS verification, no store — with the
/// simulator in a child process, so this process's CPU is the client's (plus the small cost of
/// driving it, the same for both). The transports take turns, several rounds each, so a machine
/// that slows down during the run slows both.
public enum ClientCostBenchmark {
  /// What to measure.
  public struct Settings: Sendable {
    /// The `receipt-migrate` binary that runs `simulator generate` and `simulator serve`.
    public var executable: String
    /// How many team accounts the generated world has.
    public var accounts = 2_000
    /// The world's seed.
    public var seed: UInt64 = 1
    /// Requests in flight (the API client's own bound is 16).
    public var concurrency = 16
    /// Requests per round.
    public var requestsPerRound = 5_000
    /// Rounds per transport, alternating.
    public var rounds = 3

    /// Settings with the defaults above.
    ///
    /// - Parameter executable: the `receipt-migrate` binary.
    public init(executable: String) {
      self.executable = executable
    }
  }

  /// One transport's figures, summed over its rounds.
  public struct Figures: Sendable {
    /// The transport.
    public var client: HTTPClientChoice
    /// Requests answered (any HTTP status).
    public var requests: Int
    /// Requests that failed in transport.
    public var failures: Int
    /// Answers by HTTP status.
    public var statuses: [Int: Int] = [:]
    /// Body bytes received.
    public var bodyBytes = 0
    /// This process's user + system CPU over the rounds.
    public var cpuSeconds: Double
    /// Wall-clock seconds over the rounds.
    public var seconds: Double
    /// CPU microseconds per answered request, one figure per round.
    public var perRequestMicroseconds: [Double]

    /// CPU milliseconds per answered request over all rounds.
    public var cpuMillisecondsPerRequest: Double {
      requests == 0 ? 0 : cpuSeconds * 1000 / Double(requests)
    }
  }

  /// The figures of a run.
  public struct Report: Sendable {
    /// The settings.
    public var settings: Settings
    /// The figures by transport, sockets first.
    public var figures: [Figures]

    /// The report as text.
    public var text: String {
      var lines = [
        "bench client: \(settings.rounds) rounds of \(settings.requestsPerRound) history and "
          + "status requests per client, \(settings.concurrency) in flight, taking turns; "
          + "simulator in a child process (\(settings.accounts) accounts, seed \(settings.seed)); "
          + "no verification, no store: this process's CPU is the client's"
      ]
      for figure in figures {
        let rounds = figure.perRequestMicroseconds.map { IngestBenchmark.format($0, digits: 0) }
          .joined(separator: ", ")
        let name = figure.client.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
        let perRequest = IngestBenchmark.format(figure.cpuMillisecondsPerRequest, digits: 3)
        let seconds = IngestBenchmark.format(figure.seconds, digits: 1)
        let rate = IngestBenchmark.format(
          Double(figure.requests) / max(figure.seconds, 0.001), digits: 0)
        lines.append(
          "  \(name) \(perRequest) ms CPU per request (rounds: \(rounds) µs); "
            + "\(figure.requests) requests in \(seconds) s = \(rate)/s; "
            + "\(figure.failures) transport failures; answers "
            + figure.statuses.keys.sorted().map { "\($0)×\(figure.statuses[$0] ?? 0)" }
            .joined(separator: ", ")
            + "; \(IngestBenchmark.format(Double(figure.bodyBytes) / Double(max(figure.requests, 1)) / 1024, digits: 1)) KiB per body"
        )
      }
      if let refused = figures.first(where: { $0.statuses[200, default: 0] * 10 < $0.requests * 9 })
      {
        lines.append(
          "WARNING: fewer than 90 % of \(refused.client.rawValue)'s answers were 200: the figures "
            + "measure failures, not the client")
      }
      if let sockets = figures.first(where: { $0.client == .sockets }) {
        let met = sockets.cpuMillisecondsPerRequest <= 0.5
        lines.append(
          "sockets client: \(IngestBenchmark.format(sockets.cpuMillisecondsPerRequest, digits: 3)) ms CPU per "
            + "request (target <= 0.5 ms): \(met ? "met" : "NOT met")")
      }
      return lines.joined(separator: "\n")
    }
  }

  /// Generates a world, starts the simulator in a child process (rate limits off), makes one
  /// pass so every answer is signed before anything is timed, then times the transports.
  ///
  /// - Parameters:
  ///   - settings: what to measure.
  ///   - log: receives progress lines.
  /// - Returns: the figures.
  /// - Throws: when the world, the simulator or a request cannot be made.
  public static func run(_ settings: Settings, log: (String) -> Void) async throws -> Report {
    let files = FileManager.default
    let scratch = files.temporaryDirectory.appendingPathComponent(
      "receipt-migrate-bench-client-\(UUID().uuidString)"
    ).path
    try files.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? files.removeItem(atPath: scratch) }
    let world = "\(scratch)/world"
    log("generating a world of \(settings.accounts) accounts (seed \(settings.seed))")
    let generate = [
      "simulator", "generate", "--accounts", String(settings.accounts), "--seed",
      String(settings.seed), "--out", world,
    ]
    guard try ChildProcess.run(settings.executable, generate).status == 0 else {
      throw SimulatorProcess.Failure(
        description: "\(settings.executable) \(generate.joined(separator: " ")) failed")
    }
    log("starting the simulator in a child process, rate limits off")
    let simulator = try SimulatorProcess.start(
      executable: settings.executable,
      arguments: ["--world", world, "--log", "off", "--rate-limit", "off"])
    defer { _ = try? simulator.stop() }

    let configuration = try LookupSettings.read(from: simulator.clientVariables).configuration
    guard let base = configuration.baseURL(for: .production) else {
      throw SimulatorProcess.Failure(description: "the simulator gave no production URL")
    }
    let token = try JWTSigner(
      credentials: configuration.credentials, lifetime: JWTSigner.maximumLifetime
    )
    .token(issuedAt: SystemTime.now())
    let headers = [
      "Authorization": token.authorizationHeaderValue, "Accept": "application/json",
      "User-Agent": configuration.userAgent,
    ]
    let requests = try productionIds(world: world).flatMap { id in
      [
        HTTPRequest(
          method: "GET", url: base.appendingPathComponent("inApps/v2/history/\(id)"),
          headers: headers),
        HTTPRequest(
          method: "GET", url: base.appendingPathComponent("inApps/v1/subscriptions/\(id)"),
          headers: headers),
      ]
    }
    guard !requests.isEmpty else {
      throw SimulatorProcess.Failure(description: "the world has no production customer")
    }

    log("first pass: \(requests.count) requests, so every answer is signed before timing")
    let warm = HTTPClientChoice.sockets.makeTransport()
    let first = await send(
      requests, count: requests.count, concurrency: settings.concurrency, through: warm)
    guard first.failures == 0, first.statuses[200, default: 0] * 10 >= first.answered * 9 else {
      throw SimulatorProcess.Failure(
        description: "the first pass had \(first.failures) transport failures and answers "
          + "\(first.statuses): most requests must succeed for the figures to mean anything")
    }

    var figures = HTTPClientChoice.allCases.map {
      Figures(
        client: $0, requests: 0, failures: 0, cpuSeconds: 0, seconds: 0,
        perRequestMicroseconds: [])
    }
    // One transport of each kind for the whole run, as the API client keeps one: its pool of
    // connections is warm after the first round, as it is during a backfill.
    let transports = HTTPClientChoice.allCases.map { $0.makeTransport() }
    for round in 1...settings.rounds {
      for (index, transport) in transports.enumerated() {
        log("round \(round) of \(settings.rounds): \(figures[index].client.rawValue)")
        let cpuBefore = ResourceUsage.ofThisProcess().cpuSeconds
        let started = ContinuousClock.now
        let outcome = await send(
          requests, count: settings.requestsPerRound, concurrency: settings.concurrency,
          through: transport)
        let seconds = started.duration(to: .now).inSeconds
        let cpu = ResourceUsage.ofThisProcess().cpuSeconds - cpuBefore
        figures[index].requests += outcome.answered
        figures[index].failures += outcome.failures
        figures[index].statuses.merge(outcome.statuses, uniquingKeysWith: +)
        figures[index].bodyBytes += outcome.bodyBytes
        figures[index].cpuSeconds += cpu
        figures[index].seconds += seconds
        figures[index].perRequestMicroseconds.append(
          outcome.answered == 0 ? 0 : cpu * 1e6 / Double(outcome.answered))
      }
    }
    return Report(settings: settings, figures: figures)
  }

  /// The app transaction ids of the world's production customers, from its `accounts.csv`
  /// (any id of a customer names the whole customer).
  private static func productionIds(world: String) throws -> [String] {
    let text = try String(
      contentsOfFile: "\(world)/\(GeneratedArchive.FileName.accounts)", encoding: .utf8)
    var seen = Set<String>()
    return text.split(separator: "\n").dropFirst().compactMap { line in
      let fields = line.split(separator: ",", omittingEmptySubsequences: false)
      guard fields.count == 3, fields[2] == "Production", seen.insert(String(fields[1])).inserted
      else { return nil }
      return String(fields[1])
    }
  }

  /// What a batch of requests came to.
  private struct Outcome: Sendable {
    var answered = 0
    var failures = 0
    var statuses: [Int: Int] = [:]
    var bodyBytes = 0
  }

  /// Sends `count` requests, cycling through `requests`, with `concurrency` in flight.
  private static func send(
    _ requests: [HTTPRequest], count: Int, concurrency: Int, through transport: any HTTPTransport
  ) async -> Outcome {
    await withTaskGroup(of: Outcome.self) { group in
      let lanes = max(1, min(concurrency, count))
      for lane in 0..<lanes {
        group.addTask {
          var outcome = Outcome()
          var next = lane
          while next < count {
            do {
              let response = try await transport.send(requests[next % requests.count])
              outcome.answered += 1
              outcome.statuses[response.status, default: 0] += 1
              outcome.bodyBytes += response.body.count
            } catch {
              outcome.failures += 1
            }
            next += lanes
          }
          return outcome
        }
      }
      var total = Outcome()
      for await outcome in group {
        total.answered += outcome.answered
        total.failures += outcome.failures
        total.statuses.merge(outcome.statuses, uniquingKeysWith: +)
        total.bodyBytes += outcome.bodyBytes
      }
      return total
    }
  }
}
