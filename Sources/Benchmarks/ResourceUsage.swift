#if canImport(Glibc)
  import Glibc
#endif

/// Peak memory and CPU time from a `rusage`: of this process (`getrusage`) or of a child that
/// exited (`wait4`).
struct ResourceUsage {
  /// Peak resident set size in bytes.
  var peakResidentBytes: Int64
  /// User plus system CPU seconds.
  var cpuSeconds: Double

  /// The figures of `usage`.
  init(_ usage: rusage) {
    // Linux reports `ru_maxrss` in kilobytes.
    peakResidentBytes = Int64(usage.ru_maxrss) * 1024
    cpuSeconds =
      Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
      + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
  }

  /// This process's figures so far.
  static func ofThisProcess() -> ResourceUsage {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return ResourceUsage(usage)
  }
}

extension Duration {
  /// The duration in seconds, as a `Double`.
  var inSeconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
