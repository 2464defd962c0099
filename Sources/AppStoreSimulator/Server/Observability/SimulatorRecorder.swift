import Synchronization

/// Keeps the counters and the bounded in-memory request log, and passes each entry to the
/// configured callback.
final class SimulatorRecorder: Sendable {
  private struct Log {
    var entries: [SimulatorRequestLogEntry] = []
    /// Where the next entry goes once the ring is full.
    var next = 0
    var sequence = 0
  }

  private let capacity: Int
  private let callback: (@Sendable (SimulatorRequestLogEntry) -> Void)?
  private let counters = Mutex<[SimulatorStatistics.Key: SimulatorEndpointCounters]>([:])
  private let log = Mutex(Log())

  init(capacity: Int, callback: (@Sendable (SimulatorRequestLogEntry) -> Void)?) {
    self.capacity = capacity
    self.callback = callback
  }

  /// The next request number.
  func nextSequence() -> Int {
    log.withLock { log in
      log.sequence += 1
      return log.sequence
    }
  }

  /// Counts and logs one answered request.
  func record(_ entry: SimulatorRequestLogEntry) {
    counters.withLock { counters in
      let key = SimulatorStatistics.Key(environment: entry.environment, endpoint: entry.endpoint)
      var counts = counters[key] ?? SimulatorEndpointCounters()
      counts.requests += 1
      if let status = entry.status { counts.statuses[status, default: 0] += 1 }
      if let code = entry.errorCode { counts.errorCodes[code, default: 0] += 1 }
      if let fault = entry.fault { counts.faults[fault, default: 0] += 1 }
      if let rejection = entry.tokenRejection { counts.tokenRejections[rejection, default: 0] += 1 }
      counters[key] = counts
    }
    if capacity > 0 {
      log.withLock { log in
        if log.entries.count < capacity {
          log.entries.append(entry)
        } else {
          log.entries[log.next] = entry
          log.next = (log.next + 1) % capacity
        }
      }
    }
    callback?(entry)
  }

  /// The counters.
  func counterSnapshot() -> [SimulatorStatistics.Key: SimulatorEndpointCounters] {
    counters.withLock { $0 }
  }

  /// The log, oldest first.
  func entries() -> [SimulatorRequestLogEntry] {
    log.withLock { log in
      Array(log.entries[log.next...] + log.entries[..<log.next])
    }
  }
}
