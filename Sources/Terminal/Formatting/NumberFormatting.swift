/// Numbers as people read them in summaries: `12,345`, `412.3`, `61.7%`.
///
/// Deliberately locale-independent, so logs and golden files read the same on every machine.
public enum NumberFormatting {
  /// An integer with a separator between groups of three digits: `12345` gives `12,345`.
  ///
  /// - Parameters:
  ///   - value: The integer; negative values keep their sign.
  ///   - separator: The group separator.
  /// - Returns: The grouped digits.
  public static func grouped(_ value: some BinaryInteger, separator: Character = ",") -> String {
    let digits = String(value.magnitude)
    var grouped = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 {
        grouped.append(separator)
      }
      grouped.append(digit)
    }
    return value < 0 ? "-" + grouped : grouped
  }

  /// A number rounded to a fixed number of decimals: `412.345` gives `412.3`.
  ///
  /// - Parameters:
  ///   - value: The number; `nan` and infinities are shown as `-`.
  ///   - fractionDigits: The number of decimals, 0 to 9.
  ///   - grouped: Whether to separate thousands in the integer part.
  /// - Returns: The rounded number.
  public static func decimal(_ value: Double, fractionDigits: Int = 1, grouped: Bool = false)
    -> String
  {
    let digits = min(max(fractionDigits, 0), 9)
    var scale: Int64 = 1
    for _ in 0..<digits {
      scale *= 10
    }
    let scaled = (value * Double(scale)).rounded()
    // Past 2^62 the decimals are noise, and the conversion to Int64 must not trap.
    guard scaled.isFinite, abs(scaled) < 0x1p62 else { return value.isFinite ? "\(value)" : "-" }
    let magnitude = Int64(abs(scaled))
    let integerPart = magnitude / scale
    let integerText = grouped ? Self.grouped(integerPart) : String(integerPart)
    let sign = scaled < 0 ? "-" : ""
    guard digits > 0 else { return sign + integerText }
    let fraction = String(magnitude % scale)
    let padding = String(repeating: "0", count: digits - fraction.count)
    return sign + integerText + "." + padding + fraction
  }

  /// A fraction as a percentage: `0.61725` gives `61.7%`.
  ///
  /// - Parameters:
  ///   - fraction: The fraction, where 1 is 100%.
  ///   - fractionDigits: The number of decimals of the percentage.
  /// - Returns: The percentage with its `%` sign.
  public static func percent(_ fraction: Double, fractionDigits: Int = 1) -> String {
    decimal(fraction * 100, fractionDigits: fractionDigits) + "%"
  }
}
