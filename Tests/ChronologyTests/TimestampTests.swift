import Chronology
import Foundation
import Testing

@Suite("Timestamp")
struct TimestampTests {
  @Test(
    "formats ISO 8601 in UTC",
    arguments: [
      (Int64(0), "1970-01-01T00:00:00Z"),
      (1_709_294_400_000, "2024-03-01T12:00:00Z"),
      (1_709_294_400_250, "2024-03-01T12:00:00.250Z"),
      (951_782_400_000, "2000-02-29T00:00:00Z"),
      (-1, "1969-12-31T23:59:59.999Z"),
      (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
    ])
  func formats(milliseconds: Int64, expected: String) {
    #expect(Timestamp(millisecondsSince1970: milliseconds).iso8601 == expected)
  }

  @Test(
    "parses every accepted form",
    arguments: [
      ("2024-03-01T12:00:00Z", Int64(1_709_294_400_000)),
      ("2024-03-01 12:00:00Z", 1_709_294_400_000),
      ("2024-03-01T12:00Z", 1_709_294_400_000),
      ("2024-03-01T12:00:00.25Z", 1_709_294_400_250),
      ("2024-03-01T12:00:00.123456Z", 1_709_294_400_123),
      ("2024-03-01T14:00:00+02:00", 1_709_294_400_000),
      ("2024-03-01T07:00:00-0500", 1_709_294_400_000),
      ("2024-03-01", 1_709_251_200_000),
      ("1709294400000", 1_709_294_400_000),
      ("  2024-03-01  ", 1_709_251_200_000),
    ])
  func parses(text: String, expected: Int64) {
    #expect(Timestamp(parsing: text)?.millisecondsSince1970 == expected)
  }

  @Test(
    "rejects what is not an instant",
    arguments: [
      "", "tomorrow", "2024-02-30", "2023-02-29", "2024-13-01", "2024-03-01T24:00:00Z",
      "2024-03-01T12:00:00", "20240301", "2024-03-01T12:00:00Zjunk", "2024-3-1",
      "99999999999999999999",
    ])
  func rejects(text: String) {
    #expect(Timestamp(parsing: text) == nil)
  }

  @Test("agrees with Foundation on the calendar for every day of four centuries")
  func agreesWithFoundation() {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    // Step 3 days and 7 hours to visit every weekday, month length and leap rule.
    var ms: Int64 = -5_000_000_000_000
    let step: Int64 = 3 * Timestamp.millisecondsPerDay + 7 * Timestamp.millisecondsPerHour + 1
    while ms < 7_000_000_000_000 {
      let civil = CivilTime(Timestamp(millisecondsSince1970: ms))
      let date = Date(timeIntervalSince1970: Double(ms) / 1000)
      let parts = calendar.dateComponents(
        [.year, .month, .day, .hour, .minute, .second], from: date)
      #expect(Int(civil.year) == parts.year && civil.month == parts.month && civil.day == parts.day)
      #expect(civil.hour == parts.hour && civil.minute == parts.minute)
      #expect(civil.timestamp.millisecondsSince1970 == ms)
      ms += step
    }
  }

  @Test("seconds round towards negative infinity")
  func seconds() {
    #expect(Timestamp(millisecondsSince1970: 1999).secondsSince1970 == 1)
    #expect(Timestamp(millisecondsSince1970: -1).secondsSince1970 == -1)
    #expect(Timestamp(millisecondsSince1970: -1000).secondsSince1970 == -1)
    #expect(Timestamp(secondsSince1970: 5).millisecondsSince1970 == 5000)
    #expect(Timestamp(millisecondsSince1970: .min).secondsSince1970 == Int64.min / 1000 - 1)
    #expect(Timestamp(millisecondsSince1970: .max).secondsSince1970 == Int64.max / 1000)
  }

  /// Dates arrive from files and the network: no 64-bit value may trap the arithmetic.
  @Test("arithmetic at the edges of 64 bits saturates instead of trapping")
  func saturates() {
    let earliest = Timestamp.distantPast
    let latest = Timestamp.distantFuture
    #expect(earliest.adding(milliseconds: -1) == earliest)
    #expect(latest.adding(milliseconds: 1) == latest)
    #expect(earliest.adding(milliseconds: .max) == Timestamp(millisecondsSince1970: -1))
    #expect(latest.milliseconds(since: earliest) == .max)
    #expect(earliest.milliseconds(since: latest) == -.max)
    // Exactly Int64.min without overflow is still kept within reach of abs.
    #expect(earliest.milliseconds(since: Timestamp(millisecondsSince1970: 0)) == -.max)
    #expect(abs(earliest.milliseconds(since: Timestamp(millisecondsSince1970: 1))) == .max)
    #expect(Timestamp(secondsSince1970: .max) == latest)
    #expect(Timestamp(secondsSince1970: .min) == earliest)
    #expect(
      Timestamp(secondsSince1970: Int64.max / 1000).millisecondsSince1970 == Int64.max / 1000 * 1000
    )
    for edge in [Int64.min, .min + 1, .min + 999, .max - 999, .max] {
      let instant = Timestamp(millisecondsSince1970: edge)
      let civil = CivilTime(instant)
      #expect(civil.isValid)
      #expect(civil.timestamp == instant, "\(edge) through its calendar fields")
      #expect(!instant.iso8601.isEmpty)
    }
    // A year too far from 1970 for milliseconds saturates.
    #expect(CivilTime(year: 300_000_000, month: 1, day: 1).timestamp == latest)
    #expect(CivilTime(year: -300_000_000, month: 1, day: 1).timestamp == earliest)
  }
}

@Suite("CalendarDuration")
struct CalendarDurationTests {
  @Test(
    "parses ISO 8601 durations and refuses the rest",
    arguments: [
      ("P90D", CalendarDuration(days: 90)), ("P1M", CalendarDuration(months: 1)),
      ("P1Y6M", CalendarDuration(years: 1, months: 6)), ("P2W", CalendarDuration(days: 14)),
      ("PT12H", CalendarDuration(seconds: 43_200)),
      ("P1DT1H30M", CalendarDuration(days: 1, seconds: 5_400)),
    ])
  func parses(text: String, expected: CalendarDuration) {
    #expect(CalendarDuration(parsing: text) == expected)
    #expect(CalendarDuration(parsing: expected.description) == expected)
  }

  @Test(
    "refuses what is not a positive duration",
    arguments: ["", "P", "90D", "P0D", "PT", "P1H", "P-1D", "P1.5M", "P1D2"])
  func refuses(text: String) {
    #expect(CalendarDuration(parsing: text) == nil)
  }

  @Test("months move the date on the calendar; days are fixed lengths")
  func ends() throws {
    let january31 = try #require(Timestamp(parsing: "2024-01-31T10:00:00Z"))
    #expect(CalendarDuration(months: 1).end(from: january31).iso8601 == "2024-02-29T10:00:00Z")
    #expect(
      CalendarDuration(years: 1, months: 1).end(from: january31).iso8601 == "2025-02-28T10:00:00Z")
    #expect(CalendarDuration(months: 11).end(from: january31).iso8601 == "2024-12-31T10:00:00Z")
    #expect(CalendarDuration(days: 90).end(from: january31).iso8601 == "2024-04-30T10:00:00Z")
  }
}
