import JSON
import Synchronization

/// Counts requests, outcomes, retries, 429s and errors per endpoint, for run reports.
///
/// Counters never hold request tokens, headers or bodies: only endpoints, statuses and codes.
///
/// Thread safety: shared by every request of a client; the counts are behind a mutex.
public final class RequestCounters: Sendable {
  private let counts = Mutex<[Endpoint: EndpointCounts]>([:])

  /// Empty counters.
  public init() {}

  /// Adds to the counts of `endpoint`.
  ///
  /// - Parameters:
  ///   - endpoint: The endpoint.
  ///   - change: Edits the counts.
  public func record(_ endpoint: Endpoint, _ change: (inout EndpointCounts) -> Void) {
    counts.withLock { counts in change(&counts[endpoint, default: EndpointCounts()]) }
  }

  /// The counts so far.
  ///
  /// - Returns: A copy, unaffected by later requests.
  public func snapshot() -> RequestCountersSnapshot {
    RequestCountersSnapshot(endpoints: counts.withLock { $0 })
  }
}
