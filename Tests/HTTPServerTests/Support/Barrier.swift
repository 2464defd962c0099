import Dispatch
import Synchronization

/// Lets handlers continue only once `count` of them are inside the server at the same time,
/// which proves the server runs that many requests concurrently.
final class Barrier: Sendable {
  private let count: Int
  private let arrived = Mutex(0)
  private let gate = DispatchSemaphore(value: 0)

  init(count: Int) {
    self.count = count
  }

  /// - Returns: `false` when the others did not arrive within the ten-second safety timeout.
  func arriveAndWait() -> Bool {
    let position = arrived.withLock { arrived in
      arrived += 1
      return arrived
    }
    if position == count {
      for _ in 0..<count { gate.signal() }
    }
    return gate.wait(timeout: .now() + 10) == .success
  }
}
