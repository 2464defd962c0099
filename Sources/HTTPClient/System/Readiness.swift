import Chronology
import Glibc

/// Waits for one descriptor to become readable or writable before a deadline, with `poll(2)`.
enum Readiness {
  /// What the wait ended with.
  enum Outcome: Equatable {
    /// The descriptor is ready (or has an error or hang-up to report on the next call).
    case ready
    /// The deadline passed first.
    case timedOut
    /// `poll` itself failed with this `errno`.
    case failed(Int32)
  }

  /// Waits until `descriptor` is ready for `events` or `deadline` passes, retrying after signals.
  ///
  /// - Parameters:
  ///   - descriptor: The socket.
  ///   - events: `POLLIN` or `POLLOUT`.
  ///   - deadline: When to give up.
  static func wait(
    for descriptor: Int32, events: Int32, until deadline: ContinuousClock.Instant
  ) -> Outcome {
    var entry = pollfd(fd: descriptor, events: Int16(events), revents: 0)
    while true {
      let timeout = deadline.pollTimeoutMilliseconds
      let count = poll(&entry, 1, timeout)
      if count > 0 { return .ready }
      if count == 0 {
        // poll may wake a little early; only a passed deadline is a timeout.
        if timeout == 0 { return .timedOut }
        continue
      }
      let error = errno
      if error != EINTR { return .failed(error) }
    }
  }

  /// Whether an idle connection has something to read right now: the server's close (EOF), a
  /// reset, or stray bytes. Any of these means the connection cannot carry another request.
  static func hasPendingInput(_ descriptor: Int32) -> Bool {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    while true {
      let count = poll(&entry, 1, 0)
      if count >= 0 { return count > 0 }
      // A signal (a child process of the same program exiting, say) says nothing about the
      // connection: ask again. Any other failure means the descriptor is not worth reusing.
      if errno != EINTR { return true }
    }
  }
}
