import Terminal
import Testing

@Suite("Number and duration formatting")
struct FormattingTests {
  @Test(
    "Integers are grouped by thousands",
    arguments: [
      (Int64(0), "0"),
      (999, "999"),
      (1000, "1,000"),
      (12_345, "12,345"),
      (1_234_567, "1,234,567"),
      (-1234, "-1,234"),
      (Int64.max, "9,223,372,036,854,775,807"),
      (Int64.min, "-9,223,372,036,854,775,808"),
    ])
  func grouped(value: Int64, expected: String) {
    #expect(NumberFormatting.grouped(value) == expected)
  }

  @Test(
    "Decimals are rounded to a fixed number of digits",
    arguments: [
      (412.345, 1, false, "412.3"),
      (0.05, 1, false, "0.1"),
      (-0.04, 1, false, "0.0"),
      (-2.25, 1, false, "-2.3"),
      (1234.5, 1, true, "1,234.5"),
      (1234.5, 0, true, "1,235"),
      (7, 3, false, "7.000"),
      (0.001, 2, false, "0.00"),
      (Double.nan, 1, false, "-"),
      (Double.infinity, 1, false, "-"),
    ])
  func decimal(value: Double, digits: Int, grouped: Bool, expected: String) {
    #expect(NumberFormatting.decimal(value, fractionDigits: digits, grouped: grouped) == expected)
  }

  @Test("Percentages")
  func percent() {
    #expect(NumberFormatting.percent(0.617_25) == "61.7%")
    #expect(NumberFormatting.percent(1) == "100.0%")
    #expect(NumberFormatting.percent(0.5, fractionDigits: 0) == "50%")
  }

  @Test(
    "Durations as a clock and in words",
    arguments: [
      (Duration.milliseconds(18_570), "0:18", "18s"),
      (.seconds(303), "5:03", "5m 3s"),
      (.seconds(3723), "1:02:03", "1h 2m"),
      (.zero, "0:00", "0s"),
      (.seconds(-5), "0:00", "0s"),
    ])
  func durations(duration: Duration, clock: String, compact: String) {
    #expect(DurationFormatting.clock(duration) == clock)
    #expect(DurationFormatting.compact(duration) == compact)
  }
}
