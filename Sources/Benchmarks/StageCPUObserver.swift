import MigrationPipeline
import Synchronization

/// Passes progress on to another observer and notes this process's CPU seconds when the
/// backfill stage starts and ends, so that the client's CPU per request is read from the stage
/// that sends the requests rather than from the whole run.
final class StageCPUObserver: ProgressObserver {
  private let inner: (any ProgressObserver)?
  private let stage: String
  private let marks = Mutex<(started: Double?, finished: Double?)>((nil, nil))

  /// An observer timing `stage` and forwarding everything to `inner`.
  init(stage: String, forwardingTo inner: (any ProgressObserver)?) {
    self.stage = stage
    self.inner = inner
  }

  /// CPU seconds of this process between the stage's start and end; `nil` if it did not run.
  var stageCPUSeconds: Double? {
    marks.withLock { marks in
      guard let started = marks.started, let finished = marks.finished else { return nil }
      return finished - started
    }
  }

  func stageStarted(_ stage: String, unit: String, total: Int64?) {
    if stage == self.stage {
      let now = ResourceUsage.ofThisProcess().cpuSeconds
      marks.withLock { $0.started = now }
    }
    inner?.stageStarted(stage, unit: unit, total: total)
  }

  func advanced(_ stage: String, by units: Int64) {
    inner?.advanced(stage, by: units)
  }

  func counted(_ stage: String, _ counter: String, by amount: Int64) {
    inner?.counted(stage, counter, by: amount)
  }

  func stageFinished(_ stage: String) {
    if stage == self.stage {
      let now = ResourceUsage.ofThisProcess().cpuSeconds
      marks.withLock { $0.finished = now }
    }
    inner?.stageFinished(stage)
  }
}
