import Chronology
import Glibc

/// The real clock, sleeper and random source, for production use; tests inject their own.
public enum SystemTime {
  /// The current wall-clock time.
  ///
  /// - Returns: Now, in Unix milliseconds.
  @Sendable public static func now() -> Timestamp {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Timestamp(
      millisecondsSince1970: Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000)
  }

  /// Suspends the task for `milliseconds`.
  ///
  /// - Parameter milliseconds: How long; zero or less returns at once.
  /// - Throws: `CancellationError` if the task is cancelled.
  @Sendable public static func sleep(milliseconds: Int64) async throws {
    guard milliseconds > 0 else { return }
    try await Task.sleep(for: .milliseconds(milliseconds))
  }

  /// A uniformly distributed number in `0..<1`, for jitter.
  ///
  /// - Returns: The number.
  @Sendable public static func random() -> Double {
    Double.random(in: 0..<1)
  }
}
