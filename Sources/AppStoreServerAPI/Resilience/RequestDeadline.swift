import Chronology

/// The instant by which a caller needs its App Store requests done — a run's time budget — so
/// that the client never begins a wait that would end after it.
///
/// The client waits in three places: the back-off before a retry, the `Retry-After` instant of
/// a 429, and its turn at the ``EndpointRateLimiter`` (which a 429 holds until its
/// `Retry-After`). A wait that would end after the deadline is not begun: the call fails at once
/// with ``AppStoreAPIError/Kind/waitRefused(until:limit:)``, naming the instant and the
/// deadline, and the caller goes on with its next customer. A caller bounds the work it runs:
///
/// ```swift
/// let deadline = RequestDeadline(instant: end, name: "the refresh's --max-duration")
/// try await RequestDeadline.$current.withValue(deadline) { try await refreshEveryone() }
/// ```
///
/// A task-local value: every child task of the bounded work sees it, nothing else does. A
/// request already on the wire is bounded by the transport's timeout, not by the deadline.
public struct RequestDeadline: Sendable, Hashable {
  /// The instant no wait may end after.
  public var instant: Timestamp
  /// What set it, for messages: `the refresh's --max-duration`.
  public var name: String

  /// A deadline.
  ///
  /// - Parameters:
  ///   - instant: The instant no wait may end after.
  ///   - name: What set it, as messages name it.
  public init(instant: Timestamp, name: String) {
    self.instant = instant
    self.name = name
  }

  /// The deadline the current task works under, if any.
  @TaskLocal public static var current: RequestDeadline?
}
