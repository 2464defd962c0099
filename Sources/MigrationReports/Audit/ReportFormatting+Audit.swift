import Chronology

// MARK: - Figures of the nightly audit

extension ReportFormatting {
  /// A rate in requests per second: whole numbers without decimals, others with one or two.
  static func rate(_ value: Double) -> String {
    if value == value.rounded() { return count(Int(value)) }
    let text = String(Int((value * 100).rounded()))
    let padded = String(repeating: "0", count: max(0, 3 - text.count)) + text
    var result = padded.dropLast(2) + "." + padded.suffix(2)
    while result.hasSuffix("0") { result.removeLast() }
    return String(result)
  }

  /// A share as a whole percentage: "50 %".
  static func percent(_ share: Double) -> String {
    "\(Int((share * 100).rounded())) %"
  }

  /// A length of time in days and hours, for data ages: "3 d 4 h", "5 h", "12 min".
  static func age(milliseconds: Int64) -> String {
    let minutes = max(0, milliseconds) / 60_000
    let hours = minutes / 60
    let days = hours / 24
    if days > 0 { return hours % 24 == 0 ? "\(days) d" : "\(days) d \(hours % 24) h" }
    if hours > 0 { return "\(hours) h" }
    return "\(minutes) min"
  }
}

/// The formatting of the audit's figures, for the sentences the refresh writes into the store
/// and its warnings, so that they read like the reports.
public enum AuditFormatting {
  /// "3 d 4 h": a length of time in days and hours.
  ///
  /// - Parameter milliseconds: the length.
  /// - Returns: the text.
  public static func age(milliseconds: Int64) -> String {
    ReportFormatting.age(milliseconds: milliseconds)
  }

  /// "1,234": a count, grouped.
  ///
  /// - Parameter value: the count.
  /// - Returns: the text.
  public static func count(_ value: Int) -> String { ReportFormatting.count(value) }
}
