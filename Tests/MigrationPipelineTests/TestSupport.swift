import Chronology
import Foundation
import MigrationPipeline
import Synchronization

/// The repository's `Legacy/` folder, located from this file.
let legacyDirectory = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Legacy")

/// A clock that starts at a fixed instant and moves one millisecond per reading.
final class SteppingClock: Sendable {
  private let current: Mutex<Int64>

  init(start: Int64 = 1_730_000_000_000) { current = Mutex(start) }

  var now: @Sendable () -> Timestamp {
    { [self] in
      Timestamp(
        millisecondsSince1970: current.withLock { value in
          value += 1
          return value
        })
    }
  }
}

/// Records every progress call.
final class RecordingObserver: ProgressObserver {
  let events = Mutex<[String]>([])

  func stageStarted(_ stage: String, unit: String, total: Int64?) {
    events.withLock { $0.append("start \(stage) \(unit) \(total.map(String.init) ?? "?")") }
  }

  func advanced(_ stage: String, by units: Int64) {
    events.withLock { $0.append("advance \(stage) \(units)") }
  }

  func counted(_ stage: String, _ counter: String, by amount: Int64) {
    events.withLock { $0.append("count \(stage) \(counter) \(amount)") }
  }

  func stageFinished(_ stage: String) {
    events.withLock { $0.append("finish \(stage)") }
  }
}
