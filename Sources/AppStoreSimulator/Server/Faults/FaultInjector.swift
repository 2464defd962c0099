import AppStoreServerAPI
import Synchronization

/// Draws, for each request, whether it meets a fault and how long its answer waits: one seeded
/// random stream for the whole server, so a run with one connection is reproducible.
final class FaultInjector: Sendable {
  /// What happens to one request.
  struct Decision: Sendable {
    var fault: FaultKind?
    var delay: Duration
  }

  private let faults: [Endpoint: EndpointFaults]
  private let random: Mutex<SeededRandom>

  init(plan: FaultPlan, seed: UInt64) {
    var faults: [Endpoint: EndpointFaults] = [:]
    for endpoint in Endpoint.allCases {
      let merged = plan.faults(for: endpoint)
      if !merged.isEmpty { faults[endpoint] = merged }
    }
    self.faults = faults
    random = Mutex(SeededRandom(seed: seed, stream: 0xFA17))
  }

  /// Draws the fault and delay of one request to `endpoint`.
  func decide(for endpoint: Endpoint) -> Decision {
    guard let faults = faults[endpoint] else { return Decision(fault: nil, delay: .zero) }
    return random.withLock { random in
      var fault: FaultKind?
      if faults.totalRate > 0 {
        var threshold = random.unit()
        for kind in FaultKind.allCases {
          let rate = faults.rates[kind] ?? 0
          if threshold < rate {
            fault = kind
            break
          }
          threshold -= rate
        }
      }
      let delay = faults.latency?.sample { random.unit() } ?? .zero
      return Decision(fault: fault, delay: delay)
    }
  }
}
