import Synchronization

/// A request between the calling task and the worker thread that runs it, resumed exactly once:
/// with the answer, with the failure, or with ``HTTPClientError/Kind/cancelled`` when its task
/// is cancelled before a worker picked it up.
final class PendingRequest: Sendable {
  typealias Continuation = CheckedContinuation<Result<HTTPClientResponse, HTTPClientError>, Never>

  private enum State {
    /// Made, not yet handed to the workers; `cancelled` when its task was cancelled already.
    case created(cancelled: Bool)
    /// Queued for a worker.
    case waiting(Continuation)
    /// A worker is running it; it finishes by itself, before its deadline at the latest.
    case running(Continuation)
    /// Resumed.
    case finished
  }

  let request: HTTPClientRequest
  let deadline: ContinuousClock.Instant
  private let state = Mutex(State.created(cancelled: false))

  init(request: HTTPClientRequest, deadline: ContinuousClock.Instant) {
    self.request = request
    self.deadline = deadline
  }

  /// Stores the continuation to resume.
  ///
  /// - Returns: `false` when the task was cancelled first; the continuation is then resumed
  ///   already and the request must not be queued.
  func attach(_ continuation: Continuation) -> Bool {
    let cancelled = state.withLock { state -> Bool in
      if case .created(cancelled: true) = state {
        state = .finished
        return true
      }
      state = .waiting(continuation)
      return false
    }
    if cancelled { continuation.resume(returning: .failure(Self.cancellation(request))) }
    return !cancelled
  }

  /// Moves a queued request to running.
  ///
  /// - Returns: `false` when it was cancelled while queued and must be skipped.
  func start() -> Bool {
    state.withLock { state in
      guard case .waiting(let continuation) = state else { return false }
      state = .running(continuation)
      return true
    }
  }

  /// Resumes the caller with `result`.
  func finish(_ result: Result<HTTPClientResponse, HTTPClientError>) {
    let continuation = state.withLock { state -> Continuation? in
      guard case .running(let continuation) = state else { return nil }
      state = .finished
      return continuation
    }
    continuation?.resume(returning: result)
  }

  /// Fails a request that has not started yet, at once; a running one is left to finish, which
  /// its deadline bounds, because a thread blocked in `poll` cannot be interrupted safely.
  func cancel() {
    let continuation = state.withLock { state -> Continuation? in
      switch state {
      case .created:
        state = .created(cancelled: true)
        return nil
      case .waiting(let continuation):
        state = .finished
        return continuation
      case .running, .finished:
        return nil
      }
    }
    continuation?.resume(returning: .failure(Self.cancellation(request)))
  }

  /// Fails a request the workers will never run.
  func abandon(_ failure: HTTPClientError) {
    let continuation = state.withLock { state -> Continuation? in
      guard case .waiting(let continuation) = state else { return nil }
      state = .finished
      return continuation
    }
    continuation?.resume(returning: .failure(failure))
  }

  private static func cancellation(_ request: HTTPClientRequest) -> HTTPClientError {
    HTTPClientError(
      .cancelled,
      "the request to \(request.host) was not sent: its task was cancelled before it started")
  }
}
