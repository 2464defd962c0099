import AppStoreServerAPI
import AppStoreSimulator
import Chronology
import CryptoSupport
import Foundation
import Synchronization

/// Measures how many App Store Server API requests per second the simulator sustains over
/// loopback with signing on: history and status calls for a generated world, at a fixed
/// number of keep-alive connections, with rate limits off.
///
/// The load generator runs on the same cores as the server, so the figures are a lower bound
/// for the server alone. What matters is that the simulator is fast enough that a backfill
/// benchmark measures the client, not the simulator.
public enum SimulatorServerBenchmark {
  /// The load generators.
  public enum LoadClient: String, Sendable, CaseIterable {
    /// Blocking loopback sockets, one thread per connection (`LoopbackLoadGenerator`).
    case sockets
    /// Foundation's URLSession (libcurl), as the API client uses.
    case urlsession
  }

  /// What to measure.
  public struct Settings: Sendable {
    /// How many team accounts the generated world has.
    public var accounts = 2_000
    /// The world's seed.
    public var seed: UInt64 = 1
    /// Connections (requests in flight).
    public var concurrency = 64
    /// How long each timed run lasts.
    public var duration: Duration = .seconds(10)
    /// Which load generators to run, one after the other.
    public var clients: [LoadClient] = [.sockets]

    /// Settings with the defaults above.
    public init() {}
  }

  /// The figures of one endpoint in one run.
  public struct EndpointFigures: Sendable {
    /// Requests completed.
    public var requests: Int
    /// Requests per second over the run.
    public var perSecond: Double
    /// Latency percentiles in milliseconds: 50th, 90th, 99th.
    public var percentiles: (p50: Double, p90: Double, p99: Double)
    /// Average body size in bytes.
    public var averageBodyBytes: Double
  }

  /// One timed run with one load generator.
  public struct Run: Sendable {
    /// The load generator.
    public var client: LoadClient
    /// Seconds from start to end.
    public var seconds: Double
    /// Figures by endpoint label (`history`, `status`).
    public var endpoints: [String: EndpointFigures]
    /// Answers by HTTP status.
    public var statuses: [Int: Int]
    /// Requests that failed in transport.
    public var failures: Int

    /// All requests per second.
    public var totalPerSecond: Double {
      Double(endpoints.values.reduce(0) { $0 + $1.requests }) / seconds
    }
  }

  /// The figures of a benchmark.
  public struct Report: Sendable {
    /// The settings.
    public var settings: Settings
    /// Customers the generated world has in production.
    public var customers: Int
    /// Transactions those customers have.
    public var transactions: Int
    /// The first pass over every customer (history and status once each), which signs every
    /// value: requests and seconds.
    public var firstPass: (requests: Int, seconds: Double)
    /// Signed values in the server's cache after the first pass.
    public var cachedSignedValues: Int
    /// The timed runs.
    public var runs: [Run]

    /// The report as text.
    public var text: String {
      var lines = [
        "bench server: \(settings.accounts) accounts, \(customers) production customers, "
          + "\(transactions) transactions; concurrency \(settings.concurrency), "
          + "\(format(settings.duration.inSeconds, digits: 0)) s per run; ES256 signing on, rate "
          + "limits off, loopback",
        "first pass: \(firstPass.requests) requests (history + status for every customer) in "
          + "\(format(firstPass.seconds, digits: 2)) s = "
          + "\(format(Double(firstPass.requests) / firstPass.seconds))/s, signing "
          + "\(cachedSignedValues) values",
      ]
      for run in runs {
        lines.append(
          "\(run.client.rawValue): \(format(run.totalPerSecond)) requests/s sustained over "
            + "\(format(run.seconds, digits: 1)) s; statuses \(describe(run.statuses)); "
            + "transport failures \(run.failures)")
        for label in run.endpoints.keys.sorted() {
          guard let figures = run.endpoints[label] else { continue }
          lines.append(
            "  \(label.padding(toLength: 8, withPad: " ", startingAt: 0)) "
              + "\(format(figures.perSecond))/s  p50 \(format(figures.percentiles.p50, digits: 1)) ms"
              + "  p90 \(format(figures.percentiles.p90, digits: 1)) ms"
              + "  p99 \(format(figures.percentiles.p99, digits: 1)) ms"
              + "  body \(format(figures.averageBodyBytes / 1024, digits: 1)) KiB avg")
        }
      }
      let best = runs.map(\.totalPerSecond).max() ?? 0
      lines.append(
        "target >= 3000 requests/s: \(best >= 3000 ? "met" : "not met") (best \(format(best))/s)")
      return lines.joined(separator: "\n")
    }

    private func describe(_ statuses: [Int: Int]) -> String {
      statuses.keys.sorted().map { "\($0)×\(statuses[$0] ?? 0)" }.joined(separator: ", ")
    }
  }

  /// Generates the world, starts the simulator in-process, makes the first pass, then runs each
  /// load generator for the configured duration.
  ///
  /// - Parameters:
  ///   - settings: what to measure.
  ///   - log: receives progress lines.
  /// - Returns: the figures.
  /// - Throws: when the chain, the key or the server cannot be made, or a connection fails.
  public static func run(_ settings: Settings, log: (String) -> Void) async throws -> Report {
    log("generating a world of \(settings.accounts) accounts")
    let world = WorldGenerator().generate(accounts: settings.accounts, seed: settings.seed)
    let chain = try SimulatorSetup.makeChain(covering: world.now)
    let key = try SimulatorTestKey.generate(bundleId: world.bundleId)
    let wallClock: @Sendable () -> Timestamp = {
      Timestamp(millisecondsSince1970: Int64(Date().timeIntervalSince1970 * 1000))
    }
    var configuration = SimulatorConfiguration(
      world: world, signingChain: chain, apiKey: key.apiKey, now: wallClock)
    configuration.rateLimits = .off
    configuration.requestLogCapacity = 0
    // The warm pass signs every value; keep them all, so the timed runs measure answering, as
    // they did before the cache's default shrank to 16,384.
    configuration.signedValueCacheLimit = max(
      configuration.signedValueCacheLimit,
      world.customers.reduce(0) { $0 + $1.transactions.count + 1 })
    configuration.http.maximumConnections = max(256, settings.concurrency * 2)
    let server = try SimulatorServer.start(configuration: configuration)
    defer { server.stop() }

    let token = try JWTSigner(credentials: key.credentials, lifetime: JWTSigner.maximumLifetime)
      .token(issuedAt: wallClock())
    let customers = world.customers.filter { $0.environment == .production && !$0.isForgotten }
    // Any id of a customer names the whole customer; alternate the kinds of id.
    let ids = customers.enumerated().map { offset, customer in
      offset % 2 == 0 || customer.transactions.isEmpty
        ? customer.appTransactionId : customer.transactions[0].transactionId
    }
    let targets = [
      LoopbackLoadGenerator.Target(label: "history", paths: ids.map { "/inApps/v2/history/\($0)" }),
      LoopbackLoadGenerator.Target(
        label: "status", paths: ids.map { "/inApps/v1/subscriptions/\($0)" }),
    ]
    let generator = LoopbackLoadGenerator(
      port: server.productionPort, authorization: token.authorizationHeaderValue,
      connections: settings.concurrency)

    log("first pass over \(ids.count) customers (signing every value)")
    let first = try generator.run(targets: targets, plan: .eachRequestOnce)
    let firstPassRequests = first.latencies.values.reduce(0) { $0 + $1.count }
    guard first.failures == 0, firstPassRequests == ids.count * targets.count else {
      throw LoopbackLoadGenerator.Failure(
        description: "the first pass completed \(firstPassRequests) of \(ids.count * 2) "
          + "requests, with \(first.failures) transport failures")
    }
    let firstPassSeconds = first.elapsed.inSeconds

    var runs: [Run] = []
    for client in settings.clients {
      log("timed run: \(client.rawValue), \(settings.concurrency) connections")
      let outcome: LoopbackLoadGenerator.Outcome
      switch client {
      case .sockets:
        outcome = try generator.run(targets: targets, plan: .timed(settings.duration))
      case .urlsession:
        outcome = try await URLSessionLoad(
          base: server.productionURL, authorization: token.authorizationHeaderValue,
          connections: settings.concurrency
        ).run(targets: targets, duration: settings.duration)
      }
      runs.append(figures(of: outcome, client: client))
    }
    return Report(
      settings: settings, customers: customers.count,
      transactions: customers.reduce(0) { $0 + $1.transactions.count },
      firstPass: (firstPassRequests, firstPassSeconds),
      cachedSignedValues: server.statistics().cachedSignedValues, runs: runs)
  }

  private static func figures(of outcome: LoopbackLoadGenerator.Outcome, client: LoadClient)
    -> Run
  {
    let elapsed = outcome.elapsed.inSeconds
    var endpoints: [String: EndpointFigures] = [:]
    for (label, latencies) in outcome.latencies {
      let sorted = latencies.sorted()
      func percentile(_ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let index = min(sorted.count - 1, Int(Double(sorted.count) * fraction))
        return Double(sorted[index]) / 1e6
      }
      endpoints[label] = EndpointFigures(
        requests: sorted.count, perSecond: Double(sorted.count) / elapsed,
        percentiles: (percentile(0.5), percentile(0.9), percentile(0.99)),
        averageBodyBytes: Double(outcome.bodyBytes[label] ?? 0) / Double(max(1, sorted.count)))
    }
    return Run(
      client: client, seconds: elapsed, endpoints: endpoints, statuses: outcome.statuses,
      failures: outcome.failures)
  }

  private static func format(_ value: Double, digits: Int = 0) -> String {
    String(format: "%.\(digits)f", value)
  }
}

extension SimulatorServerBenchmark.Report {
  fileprivate func format(_ value: Double, digits: Int = 0) -> String {
    String(format: "%.\(digits)f", value)
  }
}
