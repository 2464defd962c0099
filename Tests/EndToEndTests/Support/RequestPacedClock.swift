import AppStoreServerAPI
import Chronology
import Synchronization

/// A wall clock for the simulator that advances with its readings: real time, but at most
/// `step` milliseconds past the previous reading, so that a rate limiter on it refills by the
/// requests it sees rather than by how long a busy machine takes between them.
final class RequestPacedClock: Sendable {
  private let step: Int64
  private let last = Mutex<Int64?>(nil)

  /// A clock moving at most `step` milliseconds per reading.
  init(step: Int64) {
    self.step = step
  }

  /// The next reading: never before the previous one, never after real time.
  @Sendable func now() -> Timestamp {
    let real = SystemTime.now().millisecondsSince1970
    return Timestamp(
      millisecondsSince1970: last.withLock { last in
        let next = last.map { max($0, min(real, $0 + step)) } ?? real
        last = next
        return next
      })
  }
}
