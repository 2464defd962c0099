import AppStoreServerAPI
import Foundation
import MigrationPipeline

extension BackfillBenchmark {
  /// The figures of one run, and the targets they are held against.
  public struct Report: Sendable {
    /// How the world was generated, when it was.
    public struct Generation: Sendable {
      /// Wall seconds `simulator generate` took.
      public var seconds: Double
      /// Its peak resident memory in bytes.
      public var peakResidentBytes: Int64
    }

    /// One endpoint in one environment as the simulator answered it, against the limit.
    public struct Bucket: Sendable {
      /// The environment and endpoint.
      public var key: SimulatorProcess.Key
      /// Requests answered.
      public var requests: Int
      /// Requests per second over the backfill.
      public var perSecond: Double
      /// `perSecond` as a share of the limit.
      public var shareOfLimit: Double
      /// The requests the floor allows here.
      public var floor: Int
      /// Answers by HTTP status.
      public var statuses: [Int: Int]
    }

    /// The target share of the limit for the busiest endpoint over the whole backfill.
    public static let targetShareOfLimit = 0.9
    /// The target share of requests answered 429.
    public static let targetRateLimitedShare = 0.01
    /// The target peak resident memory of the run, in bytes.
    public static let targetPeakBytes: Int64 = 250_000_000
    /// The target time to compare and write the report, in seconds.
    public static let targetCompareAndReportSeconds = 20.0

    /// The settings.
    public var settings: Settings
    /// The world's generation, or `nil` when a kept one was used again.
    public var generation: Generation?
    /// Accounts compared.
    public var accounts: Int
    /// Wall seconds of the whole run (ingest, backfill, compare, report).
    public var runSeconds: Double
    /// Wall seconds by stage (`ingest`, `backfill`, `compare`), from the run's summary.
    public var stageSeconds: [String: Double]
    /// What the backfill did.
    public var backfill: BackfillSummary
    /// The client's request counters.
    public var clientCounts: RequestCountersSnapshot
    /// Every request the client sent in the run: the backfill's and the refresh's after it (the
    /// change feed's proof and history), which the simulator answered too.
    public var clientTotalRequests: Int
    /// What the simulator answered, and its memory and CPU time.
    public var served: SimulatorProcess.Outcome
    /// The fewest requests that store what was stored.
    public var floor: BackfillRequestFloor
    /// This process's peak resident memory in bytes: the run's, without the simulator.
    public var peakResidentBytes: Int64
    /// This process's CPU seconds over the run (every stage, and the benchmark's own
    /// bookkeeping).
    public var cpuSeconds: Double
    /// This process's CPU seconds during the backfill stage: the client (HTTP, TLS-free on
    /// loopback), verifying signed values, pacing and storing pages.
    public var backfillCPUSeconds: Double?
    /// The run's report folder, when the scratch directory is kept.
    public var reportDirectory: String?

    // MARK: - Derived figures

    /// Wall seconds of the backfill stage.
    public var backfillSeconds: Double { Double(backfill.durationMilliseconds) / 1000 }

    /// Accounts backfilled per second.
    public var accountsPerSecond: Double { Double(accounts) / max(backfillSeconds, 1e-9) }

    /// Wall seconds of the compare stage (reading, comparing, storing the comparisons).
    public var compareSeconds: Double { stageSeconds["compare"] ?? 0 }

    /// Wall seconds of writing the report: the run's time after its timed stages.
    public var reportSeconds: Double {
      max(0, runSeconds - stageSeconds.values.reduce(0, +))
    }

    /// History and status requests the client sent (every attempt).
    public var clientRequests: Int {
      clientCounts[.transactionHistory].requests + clientCounts[.subscriptionStatuses].requests
    }

    /// Answers 429 the client received, over all endpoints.
    public var rateLimited: Int { clientCounts.endpoints.values.reduce(0) { $0 + $1.rateLimited } }

    /// CPU milliseconds of this process per request sent over the whole run: the figure issue
    /// 15 measured URLSession by.
    public var cpuMillisecondsPerRequest: Double {
      cpuSeconds * 1000 / Double(max(clientCounts.totalRequests, 1))
    }

    /// CPU milliseconds of this process per request sent, over the backfill stage alone.
    public var backfillCPUMillisecondsPerRequest: Double? {
      backfillCPUSeconds.map { $0 * 1000 / Double(max(clientCounts.totalRequests, 1)) }
    }

    /// Every endpoint and environment the simulator answered, busiest first.
    public var buckets: [Bucket] {
      served.requests.keys.sorted().map { key in
        let requests = served.requests[key] ?? 0
        let perSecond = Double(requests) / max(backfillSeconds, 1e-9)
        return Bucket(
          key: key, requests: requests, perSecond: perSecond,
          shareOfLimit: perSecond / settings.rateLimit, floor: floorRequests(key),
          statuses: served.statuses[key] ?? [:])
      }.sorted { $0.requests > $1.requests }
    }

    /// The backfill's shortest possible wall time: the floor's busiest endpoint at the limit.
    public var idealBackfillSeconds: Double {
      let busiest = served.requests.keys.map(floorRequests).max() ?? 0
      return Double(busiest) / settings.rateLimit
    }

    /// The floor's requests for one endpoint in one environment.
    private func floorRequests(_ key: SimulatorProcess.Key) -> Int {
      let environment = AppStoreEnvironment(rawValue: key.environment)
      switch Endpoint(rawValue: key.endpoint) {
      case .transactionHistory?: return floor.historyRequests[environment] ?? 0
      case .subscriptionStatuses?: return floor.statusRequests[environment] ?? 0
      default: return 0
      }
    }

    // MARK: - Text

    /// The report as text, one figure per line, each target with its verdict.
    public var text: String {
      var lines = [
        "bench backfill: \(accounts) accounts (seed \(settings.seed)), \(floor.customers) "
          + "customers, \(floor.transactions) transactions; limit "
          + "\(format(settings.rateLimit))/s per endpoint and environment (client and "
          + "simulator), \(settings.latencyMilliseconds) ms added latency, concurrency "
          + "\(settings.concurrency); \(settings.client.rawValue) HTTP client; simulator in a "
          + "child process"
      ]
      if let generation {
        lines.append(
          "world: generated in \(format(generation.seconds, digits: 1)) s (not part of the run; "
            + "simulator generate peaked at \(megabytes(generation.peakResidentBytes)))")
      } else {
        lines.append("world: generated by an earlier run, used again")
      }
      lines.append(
        "stages: ingest \(seconds("ingest")), backfill \(format(backfillSeconds, digits: 1)) s, "
          + "compare \(format(compareSeconds, digits: 1)) s, report "
          + "\(format(reportSeconds, digits: 1)) s; whole run \(format(runSeconds, digits: 1)) s")
      lines.append(
        "backfill: \(format(accountsPerSecond, digits: 1)) accounts/s "
          + "(\(accounts) in \(format(backfillSeconds, digits: 1)) s); the floor's busiest "
          + "endpoint at exactly the limit would take \(format(idealBackfillSeconds, digits: 1)) "
          + "s (\(percent(idealBackfillSeconds / max(backfillSeconds, 1e-9))) of it achieved); "
          + "\(backfill.historyPages) history pages, \(backfill.statusCalls) status calls, ids "
          + "\(describe(backfill.idOutcomes)), \(backfill.failedIds) failed")
      lines.append("requests per second over the backfill, as the simulator answered them:")
      for bucket in buckets {
        lines.append(
          "  \(pad("\(bucket.key.environment) \(bucket.key.endpoint)", 35)) "
            + "\(pad(String(bucket.requests), 7, left: true)) requests "
            + "\(pad(format(bucket.perSecond, digits: 1), 6, left: true))/s = "
            + "\(pad(percent(bucket.shareOfLimit), 6, left: true)) of the limit; floor "
            + "\(bucket.floor); \(describeStatuses(bucket.statuses))")
      }
      if let busiest = buckets.first {
        lines.append(
          verdict(
            busiest.shareOfLimit >= Self.targetShareOfLimit,
            "busiest endpoint (\(busiest.key.environment) \(busiest.key.endpoint)) at "
              + "\(percent(busiest.shareOfLimit)) of the limit over the whole backfill",
            target: ">= \(percent(Self.targetShareOfLimit))"))
      }
      let sentPerCustomer = Double(clientRequests) / Double(max(floor.customers, 1))
      lines.append(
        "requests per customer: \(format(sentPerCustomer, digits: 4)) sent "
          + "(\(clientRequests) history and status requests / \(floor.customers) customers); "
          + "floor \(format(floor.requestsPerCustomer, digits: 4)) (\(floor.totalRequests) = "
          + "\(floor.historyPages) history pages + \(floor.totalStatusRequests) status calls + "
          + "\(floor.notFoundAnswers) necessary 404s + \(floor.invalidIdAnswers) refused ids)")
      lines.append(
        verdict(
          clientRequests == floor.totalRequests,
          clientRequests == floor.totalRequests
            ? "requests equal the floor"
            : "\(clientRequests - floor.totalRequests) requests above the floor (history "
              + "\(clientCounts[.transactionHistory].requests - floor.totalHistoryRequests), "
              + "status \(clientCounts[.subscriptionStatuses].requests - floor.totalStatusRequests))",
          target: "the floor"))
      let rateLimitedShare = Double(rateLimited) / Double(max(clientCounts.totalRequests, 1))
      lines.append(
        verdict(
          rateLimitedShare < Self.targetRateLimitedShare,
          "429s: \(rateLimited) of \(clientCounts.totalRequests) requests "
            + "(\(percent(rateLimitedShare, digits: 2))), retries "
            + "\(clientCounts.endpoints.values.reduce(0) { $0 + $1.retries })",
          target: "< \(percent(Self.targetRateLimitedShare))"))
      lines.append(
        verdict(
          peakResidentBytes < Self.targetPeakBytes,
          "peak memory of the run: \(megabytes(peakResidentBytes)) (this process: ingest, "
            + "client, store, compare, report; the simulator child peaked at "
            + "\(megabytes(served.peakResidentBytes)) and is not counted)",
          target: "< \(megabytes(Self.targetPeakBytes))"))
      let compareAndReport = compareSeconds + reportSeconds
      lines.append(
        verdict(
          compareAndReport < Self.targetCompareAndReportSeconds,
          "compare + report: \(format(compareAndReport, digits: 1)) s for \(accounts) accounts "
            + "(compare \(format(compareSeconds, digits: 1)) s, report "
            + "\(format(reportSeconds, digits: 1)) s)",
          target: "< \(format(Self.targetCompareAndReportSeconds)) s"))
      lines.append(
        "cross-check: the simulator answered \(served.totalRequests) requests, the client counted "
          + "\(clientTotalRequests) sent (\(clientCounts.totalRequests) by the backfill, the rest "
          + "by the refresh: the change feed's proof and notification history): "
          + (served.totalRequests == clientTotalRequests ? "equal" : "NOT equal"))
      lines.append(
        "CPU: this process \(format(cpuSeconds, digits: 1)) s, the simulator "
          + "\(format(served.cpuSeconds, digits: 1)) s, over \(format(runSeconds, digits: 1)) s "
          + "of run")
      lines.append(
        "CPU per request (\(settings.client.rawValue) client): "
          + "\(format(cpuMillisecondsPerRequest, digits: 3)) ms over the whole run"
          + (backfillCPUMillisecondsPerRequest.map {
            ", \(format($0, digits: 3)) ms over the backfill stage"
          } ?? "") + " (this process's user + system CPU / \(clientCounts.totalRequests) requests)")
      if let reportDirectory { lines.append("report: \(reportDirectory)") }
      return lines.joined(separator: "\n")
    }

    // MARK: - Formatting

    private func verdict(_ isMet: Bool, _ figure: String, target: String) -> String {
      "\(figure) (target \(target)): \(isMet ? "met" : "NOT met")"
    }

    private func seconds(_ stage: String) -> String {
      stageSeconds[stage].map { "\(format($0, digits: 1)) s" } ?? "skipped"
    }

    private func describe(_ outcomes: [String: Int]) -> String {
      outcomes.keys.sorted().map { "\($0) \(outcomes[$0] ?? 0)" }.joined(separator: ", ")
    }

    private func describeStatuses(_ statuses: [Int: Int]) -> String {
      statuses.keys.sorted().map { "\($0)×\(statuses[$0] ?? 0)" }.joined(separator: ", ")
    }

    private func format(_ value: Double, digits: Int = 0) -> String {
      String(format: "%.\(digits)f", value)
    }

    private func percent(_ share: Double, digits: Int = 1) -> String {
      format(share * 100, digits: digits) + " %"
    }

    private func megabytes(_ bytes: Int64) -> String {
      format(Double(bytes) / 1e6) + " MB"
    }

    private func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
      let padding = String(repeating: " ", count: max(0, width - text.count))
      return left ? padding + text : text + padding
    }
  }
}
