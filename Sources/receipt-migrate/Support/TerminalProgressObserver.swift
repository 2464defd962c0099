import MigrationPipeline
import Synchronization
import Terminal

/// Shows stage progress on standard error: a live line on a terminal, a log line every few
/// seconds otherwise (cron, CI, a pipe).
final class TerminalProgressObserver: ProgressObserver {
  private let meters = Mutex<[String: Meter]>([:])
  private let logInterval: Duration

  /// A meter and, for byte-counted stages, the bytes not yet shown as whole megabytes.
  private struct Meter {
    var meter: ProgressMeter
    var bytesPerUnit: Int64
    var pendingBytes: Int64 = 0
  }

  /// The counters each stage shows from the start, even at zero.
  private static let counters = [
    "ingest": ["quarantined"], "backfill": ["requests", "429s", "retries", "failures"],
    "link": ["requests", "sent", "skipped", "failures"],
    "undo": ["requests", "sent", "skipped", "failures"],
    "replay": ["accepted", "failed", "in doubt"],
  ]

  init(logInterval: Duration = .seconds(10)) {
    self.logInterval = logInterval
  }

  func stageStarted(_ stage: String, unit: String, total: Int64?) {
    let bytesPerUnit: Int64 = unit == "bytes" ? 1_000_000 : 1
    let meter = ProgressMeter(
      stage: stage, unit: unit == "bytes" ? "MB" : unit,
      total: total.map { Int(($0 + bytesPerUnit - 1) / bytesPerUnit) },
      counters: Self.counters[stage] ?? [],
      style: .automatic(for: TerminalCapabilities.detect(), logInterval: logInterval))
    meters.withLock { $0[stage] = Meter(meter: meter, bytesPerUnit: bytesPerUnit) }
  }

  func advanced(_ stage: String, by units: Int64) {
    meters.withLock { meters in
      guard var entry = meters[stage] else { return }
      entry.pendingBytes += units
      let whole = entry.pendingBytes / entry.bytesPerUnit
      if whole > 0 {
        entry.meter.advance(by: Int(whole))
        entry.pendingBytes -= whole * entry.bytesPerUnit
      }
      meters[stage] = entry
    }
  }

  func counted(_ stage: String, _ counter: String, by amount: Int64) {
    meters.withLock { $0[stage]?.meter.increment(counter, by: Int(amount)) }
  }

  func stageFinished(_ stage: String) {
    let entry = meters.withLock { $0.removeValue(forKey: stage) }
    if let entry, entry.pendingBytes > 0 { entry.meter.advance(by: 1) }
    entry?.meter.finish()
  }
}
