import Chronology

/// Reads the `Retry-After` header of a 429.
///
/// Apple sends the UNIX time in **milliseconds** at which to retry, not the RFC delta-seconds;
/// to be safe with either, a large number is read as epoch milliseconds, a mid-sized one as epoch
/// seconds, and a small one as seconds from now.
public enum RetryAfterHeader {
  /// The instant a `Retry-After` value names.
  ///
  /// - Parameters:
  ///   - value: The header value, or `nil`.
  ///   - now: The current instant, for delta-seconds.
  /// - Returns: The instant, or `nil` if the header is absent or not an integer.
  public static func instant(from value: String?, now: Timestamp) -> Timestamp? {
    guard let text = value?.trimmingWhitespace, let number = Int64(text), number >= 0 else {
      return nil
    }
    switch number {
    case 100_000_000_000...:
      // 10^11 ms is 1973; any epoch-milliseconds value of this century is above it.
      return Timestamp(millisecondsSince1970: number)
    case 1_000_000_000...:
      // 10^9 s is 2001; delta-seconds this large (31 years) are not meant literally.
      return Timestamp(secondsSince1970: number)
    default:
      return now.adding(milliseconds: number * Timestamp.millisecondsPerSecond)
    }
  }
}

extension String {
  var trimmingWhitespace: Substring {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let start = firstIndex(where: { !isSpace($0) }),
      let end = lastIndex(where: { !isSpace($0) })
    else { return "" }
    return self[start...end]
  }
}
