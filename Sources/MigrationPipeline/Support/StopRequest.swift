import Synchronization

/// A request to stop a run at its next checkpoint, made from outside the run (a signal
/// handler) without cancelling its task.
///
/// Cancelling a task that is inside `URLSession.data(for:)` can deadlock FoundationNetworking on
/// Linux (its cancellation takes the session's queue while that queue resumes the task), and it
/// abandons the request in flight. A stop request instead lets every request in flight finish
/// and be stored; the stages look at it at their checkpoints — between requests, pages, batches
/// and chunks, where the store is consistent — and end there with `CancellationError`.
///
/// The request reaches the stages as a task-local value, so child tasks see it and nothing else
/// in the process does.
public final class StopRequest: Sendable {
  private let requested = Atomic<Bool>(false)

  /// Creates a request that has not been made yet.
  public init() {}

  /// The request the current task runs under, if any.
  @TaskLocal public static var current: StopRequest?

  /// Asks the run to stop at its next checkpoint.
  public func request() { requested.store(true, ordering: .relaxed) }

  /// Whether a stop was asked for.
  public var isRequested: Bool { requested.load(ordering: .relaxed) }

  /// Whether the request the current task runs under was made: what the App Store client asks
  /// between the slices of its waits (pass it as the client's `isStopping`), so that a wait for
  /// a retry or a `Retry-After` ends within 100 ms of a signal.
  ///
  /// - Returns: `true` once a stop was asked for.
  @Sendable public static func isRequestedInCurrentTask() -> Bool {
    current?.isRequested == true
  }

  /// A checkpoint: throws when the current task is cancelled or a stop was asked for.
  ///
  /// - Throws: `CancellationError`.
  public static func checkpoint() throws {
    try Task.checkCancellation()
    if current?.isRequested == true { throw CancellationError() }
  }
}
