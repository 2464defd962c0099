extension ContinuousClock.Instant {
  /// The time left until this instant in whole milliseconds, rounded up so that a `poll(2)`
  /// wait never ends before it; 0 once it has passed. The socket client and the loopback server
  /// both wait with it.
  public var pollTimeoutMilliseconds: Int32 {
    let remaining = ContinuousClock.now.duration(to: self)
    guard remaining > .zero else { return 0 }
    let (seconds, attoseconds) = remaining.components
    let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000
    let milliseconds =
      seconds.multipliedReportingOverflow(by: 1000).partialValue
      + (attoseconds + attosecondsPerMillisecond - 1) / attosecondsPerMillisecond
    return Int32(clamping: max(milliseconds, 1))
  }
}
