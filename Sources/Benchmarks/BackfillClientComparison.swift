import AppStoreServerAPI
import Foundation
import MigrationPipeline

/// `bench backfill --client both`: the same backfill run twice over one world, once with each
/// HTTP client, and their CPU per request side by side.
public enum BackfillClientComparison {
  /// Runs the benchmark with every client in `clients`, in order, over one world.
  ///
  /// - Parameters:
  ///   - settings: What to measure; `client` is replaced by each of `clients`.
  ///   - clients: The HTTP clients to compare.
  ///   - observer: The runs' stage progress.
  ///   - log: Receives progress lines.
  /// - Returns: One report per client, in order.
  /// - Throws: When a run fails.
  public static func run(
    _ settings: BackfillBenchmark.Settings, clients: [HTTPClientChoice],
    observer: (any ProgressObserver)? = nil, log: (String) -> Void
  ) async throws -> [BackfillBenchmark.Report] {
    var shared = settings
    let files = FileManager.default
    // The world is generated once and used by every run, so a scratch directory is kept
    // across them even when the caller did not ask to keep one.
    let temporary =
      settings.directory == nil
      ? files.temporaryDirectory.appendingPathComponent(
        "receipt-migrate-bench-clients-\(UUID().uuidString)"
      ).path : nil
    shared.directory = settings.directory ?? temporary
    defer {
      if let temporary { try? files.removeItem(atPath: temporary) }
    }
    var reports: [BackfillBenchmark.Report] = []
    for client in clients {
      shared.client = client
      var report = try await BackfillBenchmark.run(shared, observer: observer, log: log)
      if temporary != nil { report.reportDirectory = nil }
      reports.append(report)
    }
    return reports
  }

  /// The clients' figures side by side, one line each, then the ratio.
  ///
  /// - Parameter reports: The reports of ``run(_:clients:observer:log:)``.
  /// - Returns: The table as text.
  public static func text(_ reports: [BackfillBenchmark.Report]) -> String {
    var lines = [
      "client comparison (same world, same limit; CPU is this process's user + system):",
      "  client       requests   backfill s   busiest/limit   CPU ms/request (run)   "
        + "CPU ms/request (backfill)",
    ]
    for report in reports {
      let busiest = report.buckets.first?.shareOfLimit ?? 0
      lines.append(
        "  "
          + [
            pad(report.settings.client.rawValue, 10),
            pad(String(report.clientCounts.totalRequests), 10, left: true),
            pad(format(report.backfillSeconds, 1), 12, left: true),
            pad(format(busiest * 100, 1) + " %", 15, left: true),
            pad(format(report.cpuMillisecondsPerRequest, 3), 22, left: true),
            pad(
              report.backfillCPUMillisecondsPerRequest.map { format($0, 3) } ?? "-", 27, left: true),
          ].joined(separator: " "))
    }
    if reports.count == 2, let first = reports[0].backfillCPUMillisecondsPerRequest,
      let second = reports[1].backfillCPUMillisecondsPerRequest, second > 0
    {
      lines.append(
        "  backfill CPU per request: \(reports[0].settings.client.rawValue) / "
          + "\(reports[1].settings.client.rawValue) = \(format(first / second, 2))×")
    }
    return lines.joined(separator: "\n")
  }

  private static func format(_ value: Double, _ digits: Int) -> String {
    String(format: "%.\(digits)f", value)
  }

  private static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? padding + text : text + padding
  }
}
