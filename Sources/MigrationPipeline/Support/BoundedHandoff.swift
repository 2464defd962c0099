import Dispatch
import Synchronization

/// Hands values from one producer thread to one consumer thread through a queue of fixed
/// capacity, so a fast producer waits instead of filling memory. Either side can close it: the
/// consumer when it fails (the producer's next `put` then reports it), the producer when done.
final class BoundedHandoff<Value: Sendable>: Sendable {
  private struct State {
    var items: [Value] = []
    var isClosed = false
  }

  private let state = Mutex(State())
  private let spaces: DispatchSemaphore
  private let filled = DispatchSemaphore(value: 0)

  /// Creates a hand-off holding at most `capacity` values.
  init(capacity: Int) {
    spaces = DispatchSemaphore(value: capacity)
  }

  /// Waits for room, then queues a value.
  ///
  /// - Returns: `false` when the consumer closed the hand-off; the value was not queued.
  func put(_ value: Value) -> Bool {
    spaces.wait()
    let accepted = state.withLock { state in
      guard !state.isClosed else { return false }
      state.items.append(value)
      return true
    }
    if accepted {
      filled.signal()
    } else {
      spaces.signal()  // pass the wake-up on to any other waiting put
    }
    return accepted
  }

  /// Waits for a value.
  ///
  /// - Returns: the next value, or `nil` once the hand-off is closed and empty.
  func take() -> Value? {
    filled.wait()
    let value = state.withLock { state -> Value? in
      state.items.isEmpty ? nil : state.items.removeFirst()
    }
    if value != nil {
      spaces.signal()
    } else {
      filled.signal()  // closed: let later takes return at once too
    }
    return value
  }

  /// Closes the hand-off: queued values can still be taken, new ones are refused.
  func close() {
    let wasOpen = state.withLock { state in
      defer { state.isClosed = true }
      return !state.isClosed
    }
    if wasOpen {
      filled.signal()
      spaces.signal()
    }
  }
}
