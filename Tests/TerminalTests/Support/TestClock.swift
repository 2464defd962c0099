import Synchronization

/// A clock that moves only when told to. Its origin is an arbitrary instant; only the
/// offsets the test applies matter.
final class TestClock: Sendable {
  private let origin = ContinuousClock.now
  private let offset = Mutex(Duration.zero)

  var now: ContinuousClock.Instant {
    origin + offset.withLock { $0 }
  }

  func advance(by duration: Duration) {
    offset.withLock { $0 += duration }
  }
}
