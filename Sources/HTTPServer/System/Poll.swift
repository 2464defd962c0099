import Chronology
import Glibc

/// `poll(2)` against a deadline on the continuous clock.
enum Poll {
  enum Result: Equatable {
    /// At least one descriptor has events in `revents`.
    case ready
    /// The deadline passed first.
    case timedOut
    /// `poll` itself failed; the `errno` value.
    case failed(Int32)
  }

  /// Waits until one of `descriptors` is ready or `deadline` passes, retrying after signals.
  ///
  /// - Parameters:
  ///   - descriptors: The descriptors and events to watch; `revents` is filled in.
  ///   - deadline: When to give up, or `nil` to wait without limit.
  static func wait(
    _ descriptors: inout [pollfd], until deadline: ContinuousClock.Instant?
  ) -> Result {
    while true {
      let timeout = deadline.map(\.pollTimeoutMilliseconds) ?? -1
      let count = descriptors.withUnsafeMutableBufferPointer { buffer in
        poll(buffer.baseAddress, nfds_t(buffer.count), timeout)
      }
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

  /// Waits for one descriptor to become ready for `events`.
  static func wait(
    for descriptor: Int32, events: Int32, until deadline: ContinuousClock.Instant?
  ) -> Result {
    var descriptors = [pollfd(fd: descriptor, events: Int16(events), revents: 0)]
    return wait(&descriptors, until: deadline)
  }
}
