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
      let timeout = deadline.map(milliseconds(until:)) ?? -1
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

  /// The time left until `deadline` in whole milliseconds, rounded up so a wait never ends
  /// before the deadline; 0 once it has passed.
  static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
    let remaining = ContinuousClock.now.duration(to: deadline)
    guard remaining > .zero else { return 0 }
    let (seconds, attoseconds) = remaining.components
    let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000
    let milliseconds =
      seconds.multipliedReportingOverflow(by: 1000).partialValue
      + (attoseconds + attosecondsPerMillisecond - 1) / attosecondsPerMillisecond
    return Int32(clamping: max(milliseconds, 1))
  }
}
