import Chronology

/// Writes instants the way verifyReceipt did: `2024-06-15 12:00:00 Etc/GMT`, and the `*_pst`
/// spelling in Los Angeles time. The inverse of ``LegacyDateParser``; used to produce realistic
/// legacy data (the simulator, benchmark corpora).
public enum LegacyDateFormatter {
  /// `2024-06-15 12:00:00 Etc/GMT`.
  ///
  /// - Parameter instant: the instant.
  /// - Returns: the GMT spelling.
  public static func gmt(_ instant: Timestamp) -> String {
    text(CivilTime(instant)) + " Etc/GMT"
  }

  /// `2024-06-15 05:00:00 America/Los_Angeles`, in Pacific time with US daylight-saving rules
  /// (since 2007: from the second Sunday of March to the first Sunday of November).
  ///
  /// - Parameter instant: the instant.
  /// - Returns: the Pacific spelling.
  public static func pacific(_ instant: Timestamp) -> String {
    let standard = instant.adding(milliseconds: -8 * Timestamp.millisecondsPerHour)
    let civil = CivilTime(standard)
    let local =
      isDaylightTime(standard: civil)
      ? CivilTime(standard.adding(milliseconds: Timestamp.millisecondsPerHour)) : civil
    return text(local) + " America/Los_Angeles"
  }

  private static func isDaylightTime(standard: CivilTime) -> Bool {
    func sunday(_ n: Int, month: Int) -> Int {
      let first = CivilTime.daysSinceEpoch(year: standard.year, month: month, day: 1)
      let weekday = Int(((first + 4) % 7 + 7) % 7)  // 0 is Sunday; 1970-01-01 was a Thursday
      return 1 + (7 - weekday) % 7 + 7 * (n - 1)
    }
    let start = CivilTime(year: standard.year, month: 3, day: sunday(2, month: 3), hour: 2)
      .timestamp
    let end = CivilTime(year: standard.year, month: 11, day: sunday(1, month: 11), hour: 1)
      .timestamp
    return standard.timestamp >= start && standard.timestamp < end
  }

  private static func text(_ civil: CivilTime) -> String {
    guard (0...9999).contains(civil.year) else {
      func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
      return
        "\(civil.year)-\(two(civil.month))-\(two(civil.day)) \(two(civil.hour)):\(two(civil.minute)):\(two(civil.second))"
    }
    // Digits written into one small buffer: the simulator writes millions of these, and
    // interpolating six strings each time was a tenth of `simulator generate`'s time.
    return String(unsafeUninitializedCapacity: 19) { buffer in
      func put(_ value: Int, _ digits: Int, at offset: Int) {
        var rest = value
        for index in stride(from: offset + digits - 1, through: offset, by: -1) {
          buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
          rest /= 10
        }
      }
      put(Int(civil.year), 4, at: 0)
      buffer[4] = UInt8(ascii: "-")
      put(civil.month, 2, at: 5)
      buffer[7] = UInt8(ascii: "-")
      put(civil.day, 2, at: 8)
      buffer[10] = UInt8(ascii: " ")
      put(civil.hour, 2, at: 11)
      buffer[13] = UInt8(ascii: ":")
      put(civil.minute, 2, at: 14)
      buffer[16] = UInt8(ascii: ":")
      put(civil.second, 2, at: 17)
      return 19
    }
  }
}
