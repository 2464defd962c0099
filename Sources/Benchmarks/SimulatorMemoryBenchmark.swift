import AppStoreServerAPI
import AppStoreSimulator
import Chronology
import Foundation

/// Watches the memory of `receipt-migrate simulator serve` while it answers a backfill's worth of
/// requests over distinct customers: its resident set size when it has read its world, after
/// each step of requests, and at its peak.
///
/// The simulator runs in a child process, read from outside through procfs, so the load
/// generator's own memory is not counted. Each customer is asked for once per endpoint (history
/// and statuses), walking the world in order as a backfill does, so every answer is signed anew
/// and every cache sees new keys; only when the requests outnumber the customers does the walk
/// start again from the first one.
public enum SimulatorMemoryBenchmark {
  /// What to measure.
  public struct Settings: Sendable {
    /// The `receipt-migrate` binary that serves the world.
    public var executable: String
    /// A directory written by `simulator generate`.
    public var world: String
    /// How many requests to send in all.
    public var requests = 200_000
    /// How many times memory is read along the way (after as many equal steps).
    public var steps = 10
    /// Connections, each with one request in flight.
    public var concurrency = 64

    /// Settings with the defaults above.
    ///
    /// - Parameters:
    ///   - executable: the `receipt-migrate` binary.
    ///   - world: the world directory.
    public init(executable: String, world: String) {
      self.executable = executable
      self.world = world
    }
  }

  /// Memory after one step of requests.
  public struct Sample: Sendable {
    /// Requests answered so far.
    public var requests: Int
    /// Distinct customers asked for so far.
    public var customers: Int
    /// The simulator's memory after the step.
    public var memory: ProcessMemory
    /// Requests per second over the step (the machine is shared: a rough figure).
    public var perSecond: Double
  }

  /// The figures of a run.
  public struct Report: Sendable {
    /// The settings.
    public var settings: Settings
    /// Customers in the world file.
    public var worldCustomers: Int
    /// Production customers the App Store knows (the ones asked for).
    public var productionCustomers: Int
    /// Memory once the simulator serves, before any request.
    public var idle: ProcessMemory
    /// Memory after each step.
    public var samples: [Sample]
    /// Peak resident memory over the whole run, as the kernel reported it at exit.
    public var peakResidentBytes: Int64
    /// Answers by HTTP status.
    public var statuses: [Int: Int]
    /// Requests that failed in transport.
    public var failures: Int

    /// The report as text.
    public var text: String {
      var lines = [
        "bench server --world: \(settings.world), \(worldCustomers) customers "
          + "(\(productionCustomers) in production); \(settings.requests) requests (history + "
          + "status per customer) over \(settings.concurrency) connections; signing on, rate "
          + "limits off, request log off; simulator in a child process, RSS from /proc",
        "idle (world read, serving): RSS \(mebibytes(idle.residentBytes)) MiB",
        "   requests  customers   RSS MiB  peak MiB  requests/s",
      ]
      for sample in samples {
        lines.append(
          pad(sample.requests, 11) + pad(sample.customers, 11)
            + pad(mebibytes(sample.memory.residentBytes), 10)
            + pad(mebibytes(sample.memory.peakResidentBytes), 10)
            + pad(Int(sample.perSecond.rounded()), 12))
      }
      let half = samples.count / 2
      if samples.count >= 2, let last = samples.last {
        let middle = samples[max(0, half - 1)]
        let growth = last.memory.residentBytes - middle.memory.residentBytes
        lines.append(
          "second half: RSS \(growth >= 0 ? "+" : "")\(mebibytes(growth)) MiB over "
            + "\(last.requests - middle.requests) requests")
      }
      lines.append(
        "peak RSS \(mebibytes(peakResidentBytes)) MiB; statuses "
          + statuses.keys.sorted().map { "\($0)×\(statuses[$0] ?? 0)" }.joined(separator: ", ")
          + "; transport failures \(failures)")
      return lines.joined(separator: "\n")
    }

    private func mebibytes(_ bytes: Int64) -> Int {
      Int((Double(bytes) / 1_048_576).rounded())
    }

    private func pad(_ value: Int, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: " ", count: max(0, width - text.count)) + text
    }
  }

  /// Why the benchmark could not run.
  public struct Failure: Error, CustomStringConvertible {
    /// What went wrong and what to do.
    public var description: String
  }

  /// Serves the world in a child process and sends the requests in steps, reading the child's
  /// memory after each.
  ///
  /// - Parameters:
  ///   - settings: what to measure.
  ///   - log: receives progress lines.
  /// - Returns: the figures.
  /// - Throws: when the world cannot be read, the simulator cannot start, or the requests fail.
  public static func run(_ settings: Settings, log: (String) -> Void) throws -> Report {
    log("reading \(settings.world)/world.json for customer ids")
    let file = try WorldFile(path: "\(settings.world)/world.json")
    // Any id of a customer names it; alternate the kinds, as a backfill meets both.
    var ids: [String] = []
    for position in 0..<file.customerCount {
      let customer = try file.customer(at: position)
      guard customer.environment == .production && !customer.isForgotten else { continue }
      ids.append(
        ids.count % 2 == 0 || customer.transactions.isEmpty
          ? customer.appTransactionId : customer.transactions[0].transactionId)
    }
    guard !ids.isEmpty else {
      throw Failure(description: "\(settings.world) has no production customer to ask for")
    }

    log("starting the simulator on \(settings.world)")
    let simulator = try SimulatorProcess.start(
      executable: settings.executable,
      arguments: ["--world", settings.world, "--log", "off", "--rate-limit", "off"])
    defer { _ = try? simulator.stop() }
    let served = try LookupSettings.read(from: simulator.clientVariables)
    guard let base = served.configuration.baseURLOverrides[.production], let port = base.port
    else {
      throw Failure(description: "the simulator's banner gives no production URL")
    }
    let signer = try JWTSigner(
      credentials: served.configuration.credentials, lifetime: JWTSigner.maximumLifetime)
    guard let idle = simulator.memory() else {
      throw Failure(description: "cannot read /proc/PID/status of the simulator")
    }

    var samples: [Sample] = []
    var statuses: [Int: Int] = [:]
    var failures = 0
    var cursor = 0
    var sent = 0
    let steps = max(1, settings.steps)
    for step in 0..<steps {
      let target = settings.requests * (step + 1) / steps
      let count = (target - sent + 1) / 2
      var history: [String] = []
      var status: [String] = []
      for _ in 0..<count {
        let id = ids[cursor % ids.count]
        history.append("/inApps/v2/history/\(id)")
        status.append("/inApps/v1/subscriptions/\(id)")
        cursor += 1
      }
      // A fresh token per step, so that a long run never meets an expired one.
      let token = try signer.token(issuedAt: wallClock())
      let generator = LoopbackLoadGenerator(
        port: port, authorization: token.authorizationHeaderValue,
        connections: settings.concurrency)
      let outcome = try generator.run(
        targets: [.init(label: "history", paths: history), .init(label: "status", paths: status)],
        plan: .eachRequestOnce)
      let answered = outcome.latencies.values.reduce(0) { $0 + $1.count }
      sent += answered
      statuses.merge(outcome.statuses, uniquingKeysWith: +)
      failures += outcome.failures
      guard let memory = simulator.memory() else {
        throw Failure(description: "the simulator ended during the run")
      }
      let sample = Sample(
        requests: sent, customers: min(cursor, ids.count), memory: memory,
        perSecond: Double(answered) / max(outcome.elapsed.inSeconds, 1e-9))
      log(
        "\(sample.requests) requests: RSS \(memory.residentBytes >> 20) MiB, peak "
          + "\(memory.peakResidentBytes >> 20) MiB")
      samples.append(sample)
      guard outcome.failures == 0 else { break }
    }
    let outcome = try simulator.stop()
    return Report(
      settings: settings, worldCustomers: file.customerCount,
      productionCustomers: ids.count, idle: idle, samples: samples,
      peakResidentBytes: outcome.peakResidentBytes, statuses: statuses, failures: failures)
  }

  private static func wallClock() -> Timestamp {
    Timestamp(millisecondsSince1970: Int64(Date().timeIntervalSince1970 * 1000))
  }
}
