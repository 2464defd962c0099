import Foundation
import JSON

extension ScaleBenchmark {
  /// What `bench scale` measured.
  public struct Report: Sendable {
    /// The target peak resident memory of compare and of report, in bytes, at any size.
    public static let targetPeakBytes: Int64 = 300_000_000
    /// The target compare rate, in accounts per second.
    public static let targetCompareRate = 10_000.0

    /// Accounts in the store.
    public var accounts: Int
    /// How long building the store took, or `nil` when a store built before was used.
    public var buildSeconds: Double?
    /// The `compare` command; `nil` when only the store was built.
    public var compare: ChildProcess.Outcome?
    /// The `report` command (which compares again, then writes every file); `nil` when only
    /// the store was built.
    public var report: ChildProcess.Outcome?
    /// The store's size on disk.
    public var storeBytes: Int64

    /// The larger peak of the two commands.
    public var peakResidentBytes: Int64 {
      max(compare?.peakResidentBytes ?? 0, report?.peakResidentBytes ?? 0)
    }

    /// Accounts compared per second by the `compare` command, start to exit.
    public var compareRate: Double {
      guard let compare, compare.seconds > 0 else { return 0 }
      return Double(accounts) / compare.seconds
    }

    /// The figures as text, each beside its target.
    public var text: String {
      var lines: [String] = []
      lines.append("bench scale: \(accounts) accounts")
      if let buildSeconds {
        lines.append(
          "  store built in \(format(buildSeconds)) s (in-process simulator, real ingest and "
            + "backfill), \(format(Double(storeBytes) / 1e6)) MB on disk")
      } else {
        lines.append("  store built before, \(format(Double(storeBytes) / 1e6)) MB on disk")
      }
      guard let compare, let report else { return lines.joined(separator: "\n") }
      lines.append(
        "  compare: \(format(compare.seconds)) s, \(format(compareRate)) accounts/s "
          + "(target ≥ \(format(Self.targetCompareRate))), peak "
          + "\(megabytes(compare.peakResidentBytes)), CPU \(format(compare.cpuSeconds)) s")
      lines.append(
        "  report: \(format(report.seconds)) s (compares again, then writes every file), peak "
          + "\(megabytes(report.peakResidentBytes)), CPU \(format(report.cpuSeconds)) s")
      let met = peakResidentBytes < Self.targetPeakBytes
      lines.append(
        "  peak memory: \(megabytes(peakResidentBytes)) (target < \(megabytes(Self.targetPeakBytes)))"
          + (met ? "" : " — NOT MET"))
      if compareRate < Self.targetCompareRate {
        lines.append("  compare rate target NOT MET")
      }
      return lines.joined(separator: "\n")
    }

    /// `{"accounts", "peak_memory_mb", "compare_accounts_per_second", "report_seconds"}`.
    public var json: String {
      var writer = JSONWriter()
      writer.beginObject()
      writer.field("accounts", accounts)
      writer.key("peak_memory_mb")
      writer.value(Double(peakResidentBytes) / 1e6)
      writer.key("compare_accounts_per_second")
      writer.value(compareRate)
      writer.key("report_seconds")
      writer.value(report?.seconds ?? 0)
      writer.endObject()
      return writer.string
    }

    private func megabytes(_ bytes: Int64) -> String { format(Double(bytes) / 1e6) + " MB" }

    private func format(_ value: Double) -> String { String(format: "%.1f", value) }
  }
}
