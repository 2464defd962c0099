/// A calendar date and time of day in UTC (the proleptic Gregorian calendar), converted to and
/// from ``Timestamp`` with integer arithmetic only.
///
/// Written here rather than borrowed from Foundation so that formatting and parsing are exact,
/// allocation-light and identical on every platform.
public struct CivilTime: Hashable, Sendable {
  /// The year, for example 2024.
  public var year: Int64
  /// The month, 1 to 12.
  public var month: Int
  /// The day of the month, 1 to 31.
  public var day: Int
  /// The hour, 0 to 23.
  public var hour: Int
  /// The minute, 0 to 59.
  public var minute: Int
  /// The second, 0 to 59.
  public var second: Int
  /// The millisecond, 0 to 999.
  public var millisecond: Int

  /// Creates a civil time from its fields. Fields are not normalised; use ``isValid``.
  ///
  /// - Parameters:
  ///   - year: the year.
  ///   - month: the month, 1 to 12.
  ///   - day: the day of the month.
  ///   - hour: the hour, 0 to 23.
  ///   - minute: the minute, 0 to 59.
  ///   - second: the second, 0 to 59.
  ///   - millisecond: the millisecond, 0 to 999.
  public init(
    year: Int64, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0,
    millisecond: Int = 0
  ) {
    self.year = year
    self.month = month
    self.day = day
    self.hour = hour
    self.minute = minute
    self.second = second
    self.millisecond = millisecond
  }

  /// Splits a timestamp into its UTC calendar fields.
  ///
  /// - Parameter timestamp: the instant to convert.
  public init(_ timestamp: Timestamp) {
    let ms = timestamp.millisecondsSince1970
    var days = ms / Timestamp.millisecondsPerDay
    var rest = ms % Timestamp.millisecondsPerDay
    if rest < 0 {
      rest += Timestamp.millisecondsPerDay
      days -= 1
    }
    let (y, m, d) = CivilTime.civilDate(fromDaysSinceEpoch: days)
    self.init(
      year: y, month: m, day: d,
      hour: Int(rest / Timestamp.millisecondsPerHour),
      minute: Int(rest / Timestamp.millisecondsPerMinute % 60),
      second: Int(rest / 1000 % 60),
      millisecond: Int(rest % 1000))
  }

  /// Whether every field is within its calendar range (including the month's length).
  public var isValid: Bool {
    guard (1...12).contains(month), (0...23).contains(hour), (0...59).contains(minute),
      (0...59).contains(second), (0...999).contains(millisecond), day >= 1
    else { return false }
    return day <= CivilTime.daysInMonth(year: year, month: month)
  }

  /// The instant these fields denote in UTC; a year too far from 1970 for milliseconds to hold
  /// saturates at ``Timestamp/distantPast`` or ``Timestamp/distantFuture``.
  public var timestamp: Timestamp {
    var days = CivilTime.daysSinceEpoch(year: year, month: month, day: day)
    var time =
      Int64(hour) * Timestamp.millisecondsPerHour
      + Int64(minute) * Timestamp.millisecondsPerMinute + Int64(second) * 1000
      + Int64(millisecond)
    if days < 0 {
      // The earliest representable day starts before the earliest instant: count from the
      // start of the next day, which the instants of that day follow.
      days += 1
      time -= Timestamp.millisecondsPerDay
    }
    let (dayMilliseconds, overflow) = days.multipliedReportingOverflow(
      by: Timestamp.millisecondsPerDay)
    guard !overflow else { return days < 0 ? .distantPast : .distantFuture }
    return Timestamp(millisecondsSince1970: dayMilliseconds).adding(milliseconds: time)
  }

  /// `YYYY-MM-DDTHH:MM:SS[.mmm]Z`.
  public var iso8601: String {
    var text = CivilTime.padded(year, 4) + "-" + CivilTime.padded(Int64(month), 2) + "-"
    text += CivilTime.padded(Int64(day), 2) + "T" + CivilTime.padded(Int64(hour), 2) + ":"
    text += CivilTime.padded(Int64(minute), 2) + ":" + CivilTime.padded(Int64(second), 2)
    if millisecond != 0 { text += "." + CivilTime.padded(Int64(millisecond), 3) }
    return text + "Z"
  }

  // MARK: - Calendar arithmetic

  /// Days from 1970-01-01 to the given date (negative before it).
  ///
  /// - Parameters:
  ///   - year: the year.
  ///   - month: the month, 1 to 12.
  ///   - day: the day of the month.
  /// - Returns: the signed number of days since the epoch.
  public static func daysSinceEpoch(year: Int64, month: Int, day: Int) -> Int64 {
    // Count years from March so that the leap day is the last day of the year.
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
    let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The calendar date of a day counted from 1970-01-01.
  ///
  /// - Parameter days: the signed number of days since the epoch.
  /// - Returns: the year, month and day.
  public static func civilDate(fromDaysSinceEpoch days: Int64) -> (Int64, Int, Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
    let month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }

  /// The number of days in a month of a year.
  ///
  /// - Parameters:
  ///   - year: the year (leap years follow the Gregorian rule).
  ///   - month: the month, 1 to 12.
  /// - Returns: 28 to 31.
  public static func daysInMonth(year: Int64, month: Int) -> Int {
    switch month {
    case 2:
      let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
      return leap ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  private static func padded(_ value: Int64, _ width: Int) -> String {
    let digits = String(value < 0 ? -value : value)
    let padding = String(repeating: "0", count: max(0, width - digits.count))
    return (value < 0 ? "-" : "") + padding + digits
  }
}
