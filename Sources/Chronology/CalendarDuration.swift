/// A length of time as ISO 8601 writes it — `P1M`, `P90D`, `P1Y6M`, `P2W`, `PT12H` — counted on
/// the UTC calendar: years and months move the date (a month from 31 January ends on the last
/// day of February), weeks, days, hours, minutes and seconds are fixed lengths.
///
/// It is how long an app grants a non-renewing subscription: the App Store gives no expiry for
/// one, the app's own catalogue does.
public struct CalendarDuration: Hashable, Sendable, CustomStringConvertible {
  /// Whole years.
  public var years: Int
  /// Whole months.
  public var months: Int
  /// Whole days (weeks count as seven).
  public var days: Int
  /// Whole seconds of the time part.
  public var seconds: Int64

  /// Creates a duration.
  public init(years: Int = 0, months: Int = 0, days: Int = 0, seconds: Int64 = 0) {
    self.years = years
    self.months = months
    self.days = days
    self.seconds = seconds
  }

  /// Parses an ISO 8601 duration: `P`, then any of `nY`, `nM`, `nW`, `nD`, then optionally `T`
  /// and any of `nH`, `nM`, `nS`, with whole numbers. `nil` for anything else, or for a duration
  /// of zero.
  ///
  /// - Parameter text: the text, such as `P90D`.
  public init?(parsing text: String) {
    var scalars = Substring(text.uppercased())
    guard scalars.first == "P" else { return nil }
    scalars = scalars.dropFirst()
    var inTime = false
    var duration = CalendarDuration()
    var sawPart = false
    var sawTimePart = false
    while let first = scalars.first {
      if first == "T" {
        guard !inTime else { return nil }
        inTime = true
        scalars = scalars.dropFirst()
        continue
      }
      let digits = scalars.prefix { $0.isASCII && $0.isNumber }
      guard !digits.isEmpty, digits.count <= 9, let value = Int(digits) else { return nil }
      scalars = scalars.dropFirst(digits.count)
      guard let unit = scalars.first else { return nil }
      scalars = scalars.dropFirst()
      switch (inTime, unit) {
      case (false, "Y"): duration.years += value
      case (false, "M"): duration.months += value
      case (false, "W"): duration.days += 7 * value
      case (false, "D"): duration.days += value
      case (true, "H"): duration.seconds += Int64(value) * 3600
      case (true, "M"): duration.seconds += Int64(value) * 60
      case (true, "S"): duration.seconds += Int64(value)
      default: return nil
      }
      sawPart = true
      if inTime { sawTimePart = true }
    }
    guard sawPart, !inTime || sawTimePart, duration != CalendarDuration() else { return nil }
    self = duration
  }

  /// The instant this long after `start`.
  ///
  /// - Parameter start: the start, such as a purchase date.
  /// - Returns: the end.
  public func end(from start: Timestamp) -> Timestamp {
    var civil = CivilTime(start)
    let totalMonths = Int64(civil.month - 1) + Int64(years) * 12 + Int64(months)
    civil.year += totalMonths >= 0 ? totalMonths / 12 : (totalMonths - 11) / 12
    civil.month = Int(((totalMonths % 12) + 12) % 12) + 1
    civil.day = min(civil.day, CivilTime.daysInMonth(year: civil.year, month: civil.month))
    return civil.timestamp.adding(
      milliseconds: Int64(days) * Timestamp.millisecondsPerDay + seconds * 1000)
  }

  /// `P1Y6M`, `P90D`, `PT12H`.
  public var description: String {
    var text = "P"
    if years != 0 { text += "\(years)Y" }
    if months != 0 { text += "\(months)M" }
    if days != 0 { text += "\(days)D" }
    if seconds != 0 {
      text += "T"
      if seconds / 3600 != 0 { text += "\(seconds / 3600)H" }
      if seconds % 3600 / 60 != 0 { text += "\(seconds % 3600 / 60)M" }
      if seconds % 60 != 0 { text += "\(seconds % 60)S" }
    }
    return text
  }
}
