/// An instant in time as whole milliseconds since 1970-01-01T00:00:00Z — the unit of every date
/// in both the legacy receipts (`*_ms` fields) and the App Store Server API.
///
/// Timestamps are integers on purpose: they round-trip exactly through JSON, SQLite and
/// comparisons, which a `Double` of seconds (Foundation's `Date`) does not guarantee.
///
/// Any 64-bit value is a timestamp: dates arrive from files and from the network (a signed
/// value's `signedDate` is read before its signature is checked), so the arithmetic here never
/// traps. A result beyond the range saturates at ``distantPast`` or ``distantFuture``, which
/// keeps every comparison with an ordinary instant right; no ordinary instant is within 292
/// million years of either.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Milliseconds since the Unix epoch; negative values are instants before 1970.
  public var millisecondsSince1970: Int64

  /// Creates a timestamp from Unix milliseconds.
  ///
  /// - Parameter millisecondsSince1970: milliseconds since 1970-01-01T00:00:00Z.
  public init(millisecondsSince1970: Int64) {
    self.millisecondsSince1970 = millisecondsSince1970
  }

  /// Creates a timestamp from whole Unix seconds.
  ///
  /// - Parameter secondsSince1970: seconds since 1970-01-01T00:00:00Z; beyond the range of
  ///   milliseconds, the timestamp saturates.
  public init(secondsSince1970: Int64) {
    let (product, overflow) = secondsSince1970.multipliedReportingOverflow(by: 1000)
    self.millisecondsSince1970 = overflow ? (secondsSince1970 < 0 ? .min : .max) : product
  }

  /// Whole seconds since the epoch, rounded towards negative infinity.
  public var secondsSince1970: Int64 {
    let quotient = millisecondsSince1970 / 1000
    return millisecondsSince1970 % 1000 < 0 ? quotient - 1 : quotient
  }

  /// The ISO 8601 form in UTC, with milliseconds only when they are not zero:
  /// `2024-03-01T12:00:00Z` or `2024-03-01T12:00:00.250Z`.
  public var description: String { iso8601 }

  /// The ISO 8601 form in UTC, with milliseconds only when they are not zero.
  public var iso8601: String { CivilTime(self).iso8601 }

  /// Returns the timestamp moved by a number of milliseconds.
  ///
  /// - Parameter milliseconds: the signed distance to add.
  /// - Returns: the shifted timestamp, saturated at ``distantPast`` and ``distantFuture``.
  public func adding(milliseconds: Int64) -> Timestamp {
    let (sum, overflow) = millisecondsSince1970.addingReportingOverflow(milliseconds)
    guard overflow else { return Timestamp(millisecondsSince1970: sum) }
    return milliseconds < 0 ? .distantPast : .distantFuture
  }

  /// The signed number of milliseconds from `other` to this timestamp.
  ///
  /// - Parameter other: the earlier (or later) instant.
  /// - Returns: `self - other` in milliseconds, saturated at `-Int64.max` and `Int64.max` (two
  ///   instants more than 292 million years apart), so that its magnitude (`abs`) is always
  ///   defined.
  public func milliseconds(since other: Timestamp) -> Int64 {
    let (difference, overflow) = millisecondsSince1970.subtractingReportingOverflow(
      other.millisecondsSince1970)
    guard overflow || difference == .min else { return difference }
    return other.millisecondsSince1970 > millisecondsSince1970 ? -.max : .max
  }

  /// Orders timestamps chronologically.
  public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
    lhs.millisecondsSince1970 < rhs.millisecondsSince1970
  }
}

// MARK: - Common distances

extension Timestamp {
  /// Milliseconds in one second.
  public static let millisecondsPerSecond: Int64 = 1000
  /// Milliseconds in one minute.
  public static let millisecondsPerMinute: Int64 = 60_000
  /// Milliseconds in one hour.
  public static let millisecondsPerHour: Int64 = 3_600_000
  /// Milliseconds in one day of 24 hours.
  public static let millisecondsPerDay: Int64 = 86_400_000
}

// MARK: - Bounds

extension Timestamp {
  /// The earliest representable instant, for comparisons with missing dates.
  public static let distantPast = Timestamp(millisecondsSince1970: .min)
  /// The latest representable instant.
  public static let distantFuture = Timestamp(millisecondsSince1970: .max)
}
