import Synchronization

/// Bounds how many requests are in flight at once, separately from their rate: first come,
/// first served, and a cancelled waiter leaves the queue at once.
///
/// Thread safety: shared by every request of a client; the state is behind a mutex, and every
/// continuation is resumed exactly once (by a release, or by cancellation).
public final class ConcurrencyLimiter: Sendable {
  private struct Waiter {
    let id: UInt64
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var available: Int
    var waiters: [Waiter] = []
    var nextId: UInt64 = 0
    /// Waiters whose cancellation arrived before they queued.
    var cancelledEarly: Set<UInt64> = []
  }

  /// The most requests in flight at once.
  public let maximum: Int
  private let state: Mutex<State>

  /// A limiter allowing `maximum` holders at once.
  ///
  /// - Parameter maximum: At least 1.
  public init(maximum: Int) {
    self.maximum = max(1, maximum)
    state = Mutex(State(available: max(1, maximum)))
  }

  /// How many holders there are now.
  public var inFlight: Int { state.withLock { maximum - $0.available } }

  /// Waits for a permit; call ``release()`` exactly once after it returns.
  ///
  /// - Throws: `CancellationError` if the task is cancelled while waiting (no permit is held).
  public func acquire() async throws {
    let id = state.withLock { state in
      state.nextId += 1
      return state.nextId
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let resumeNow: Result<Void, any Error>? = state.withLock { state in
          if state.cancelledEarly.remove(id) != nil { return .failure(CancellationError()) }
          if state.available > 0 {
            state.available -= 1
            return .success(())
          }
          state.waiters.append(Waiter(id: id, continuation: continuation))
          return nil
        }
        if let resumeNow { continuation.resume(with: resumeNow) }
      }
    } onCancel: {
      let waiter: Waiter? = state.withLock { state in
        if let index = state.waiters.firstIndex(where: { $0.id == id }) {
          return state.waiters.remove(at: index)
        }
        state.cancelledEarly.insert(id)
        return nil
      }
      waiter?.continuation.resume(throwing: CancellationError())
    }
    // A permit granted after cancellation arrived too late to withdraw leaves cancelledEarly
    // holding this id; clear it so the set does not grow.
    state.withLock { _ = $0.cancelledEarly.remove(id) }
  }

  /// Returns a permit, handing it to the longest waiter if there is one.
  public func release() {
    let next: Waiter? = state.withLock { state in
      if state.waiters.isEmpty {
        state.available = min(maximum, state.available + 1)
        return nil
      }
      return state.waiters.removeFirst()
    }
    next?.continuation.resume()
  }
}
