import ArgumentParsing

/// Parses a duration given on the command line: a whole number with a unit — `ms`, `s`, `m`,
/// `h` or `d` (`90s`, `45m`, `2h`).
enum DurationArgument {
  /// The duration in milliseconds.
  ///
  /// - Parameters:
  ///   - text: the argument.
  ///   - flag: the flag's name, for the message.
  /// - Returns: the milliseconds.
  /// - Throws: `ValidationError` naming the flag and the accepted forms.
  static func milliseconds(_ text: String, flag: String) throws -> Int64 {
    let units: [(suffix: String, factor: Int64)] = [
      ("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000),
    ]
    for unit in units where text.hasSuffix(unit.suffix) {
      let number = text.dropLast(unit.suffix.count)
      // "5ms" also ends in "s": only a number before the suffix counts.
      guard let value = Int64(number), value >= 0 else { continue }
      let (product, overflow) = value.multipliedReportingOverflow(by: unit.factor)
      guard !overflow else { break }
      return product
    }
    throw ValidationError(
      "\(flag) '\(text)' is not a duration; use a whole number with ms, s, m, h or d, such as 45m")
  }
}
