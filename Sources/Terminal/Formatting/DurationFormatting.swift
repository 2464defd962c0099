/// Durations for progress output, rounded down to whole seconds.
public enum DurationFormatting {
  /// A duration as a clock reads: `0:18`, `5:03`, `1:02:03`; for live lines, where a
  /// constant shape keeps the line from jumping.
  ///
  /// - Parameter duration: The duration; negative durations are shown as `0:00`.
  /// - Returns: `m:ss`, or `h:mm:ss` from one hour.
  public static func clock(_ duration: Duration) -> String {
    let (hours, minutes, seconds) = parts(of: duration)
    guard hours > 0 else { return "\(minutes):\(twoDigits(seconds))" }
    return "\(hours):\(twoDigits(minutes)):\(twoDigits(seconds))"
  }

  /// A duration in words for logs: `18s`, `5m 3s`, `1h 2m`.
  ///
  /// - Parameter duration: The duration; negative durations are shown as `0s`.
  /// - Returns: The two largest units.
  public static func compact(_ duration: Duration) -> String {
    let (hours, minutes, seconds) = parts(of: duration)
    if hours > 0 {
      return "\(hours)h \(minutes)m"
    }
    if minutes > 0 {
      return "\(minutes)m \(seconds)s"
    }
    return "\(seconds)s"
  }

  private static func parts(of duration: Duration) -> (hours: Int64, minutes: Int64, seconds: Int64)
  {
    let total = max(duration.components.seconds, 0)
    return (total / 3600, total / 60 % 60, total % 60)
  }

  private static func twoDigits(_ value: Int64) -> String {
    value < 10 ? "0\(value)" : "\(value)"
  }
}
