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

  /// Numbers, counts and logs one answered request.
  func record(_ answered: SimulatorRequestLogEntry) {
    var entry = answered
    log.withLock { log in
      // Numbered and stored under one lock, so the ring is always in sequence order.
      log.sequence += 1
      entry.sequence = log.sequence
      guard capacity > 0 else { return }
      if log.entries.count < capacity {
        log.entries.append(entry)
      } else {
        log.entries[log.next] = entry
        log.next = (log.next + 1) % capacity
      }
    }
    counters.withLock { counters in
      let key = SimulatorStatistics.Key(environment: entry.environment, endpoint: entry.endpoint)
      counters[key, default: SimulatorEndpointCounters()].count(entry)
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

extension SimulatorEndpointCounters {
  /// Adds one answered request.
  fileprivate mutating func count(_ entry: SimulatorRequestLogEntry) {
    requests += 1
    if let status = entry.status { statuses[status, default: 0] += 1 }
    if let code = entry.errorCode { errorCodes[code, default: 0] += 1 }
    if let fault = entry.fault { faults[fault, default: 0] += 1 }
    if let rejection = entry.tokenRejection { tokenRejections[rejection, default: 0] += 1 }
  }
}
