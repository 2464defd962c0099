import Glibc

/// ISO 8601 UTC text for Unix milliseconds, for error messages about certificate validity.
enum UTCText {
  /// `2025-01-31T12:00:00Z` for the given instant (milliseconds are dropped).
  static func format(milliseconds: Int64) -> String {
    var seconds = time_t(UnixSeconds.floor(milliseconds: milliseconds))
    var parts = tm()
    guard gmtime_r(&seconds, &parts) != nil else { return "\(milliseconds) ms" }
    func pad(_ value: Int32, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))"
      + "T\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))Z"
  }
}
