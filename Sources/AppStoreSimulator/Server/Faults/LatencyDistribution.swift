import Foundation

/// Added latency: how long the simulator waits before answering.
///
/// Written as `20ms` (fixed), `20ms±5ms` or `20ms+-5ms` (uniform between 15 and 25 ms), or
/// `20ms~5ms` (normal with mean 20 ms and standard deviation 5 ms, never below zero). Units are
/// `ms` and `s`.
public enum LatencyDistribution: Sendable, Hashable, CustomStringConvertible {
  /// Always the same wait.
  case fixed(milliseconds: Double)
  /// A wait drawn uniformly from `milliseconds - spread` to `milliseconds + spread`.
  case uniform(milliseconds: Double, spread: Double)
  /// A wait drawn from a normal distribution, cut at zero.
  case normal(mean: Double, standardDeviation: Double)

  /// The specification text.
  public var description: String {
    switch self {
    case .fixed(let value): "\(Self.format(value))"
    case .uniform(let value, let spread): "\(Self.format(value))±\(Self.format(spread))"
    case .normal(let mean, let deviation): "\(Self.format(mean))~\(Self.format(deviation))"
    }
  }

  /// One wait.
  ///
  /// - Parameter unit: numbers uniformly distributed in `0..<1`.
  /// - Returns: the wait, zero or more.
  public func sample(_ unit: () -> Double) -> Duration {
    let milliseconds: Double
    switch self {
    case .fixed(let value):
      milliseconds = value
    case .uniform(let value, let spread):
      milliseconds = value - spread + 2 * spread * unit()
    case .normal(let mean, let deviation):
      // Box–Muller; 1 - u keeps the logarithm's argument above zero.
      let radius = (-2 * log(1 - unit())).squareRoot()
      milliseconds = mean + deviation * radius * cos(2 * Double.pi * unit())
    }
    return .microseconds(Int64((max(0, milliseconds) * 1000).rounded()))
  }

  /// Reads a distribution.
  ///
  /// - Parameter text: `20ms`, `20ms±5ms`, `20ms+-5ms` or `20ms~5ms`.
  /// - Returns: the distribution.
  /// - Throws: `SimulatorSpecificationError` saying what the syntax is.
  public static func parse(_ text: String) throws(SimulatorSpecificationError)
    -> LatencyDistribution
  {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    for separator in ["±", "+-", "~"] {
      guard let range = trimmed.range(of: separator) else { continue }
      guard let center = duration(trimmed[..<range.lowerBound]),
        let width = duration(trimmed[range.upperBound...])
      else { break }
      return separator == "~"
        ? .normal(mean: center, standardDeviation: width)
        : .uniform(milliseconds: center, spread: width)
    }
    if let value = duration(Substring(trimmed)) { return .fixed(milliseconds: value) }
    throw SimulatorSpecificationError(
      "the latency \"\(text)\" cannot be read; write 20ms (fixed), 20ms±5ms or 20ms+-5ms "
        + "(uniform), or 20ms~5ms (normal), with the units ms or s")
  }

  /// Milliseconds from `12ms`, `1.5s`; `nil` for anything else or a negative value.
  private static func duration(_ text: Substring) -> Double? {
    let scale: Double
    let number: Substring
    if text.hasSuffix("ms") {
      (scale, number) = (1, text.dropLast(2))
    } else if text.hasSuffix("s") {
      (scale, number) = (1000, text.dropLast())
    } else {
      return nil
    }
    guard let value = Double(number), value.isFinite, value >= 0 else { return nil }
    return value * scale
  }

  private static func format(_ milliseconds: Double) -> String {
    milliseconds == milliseconds.rounded()
      ? "\(Int64(milliseconds))ms" : "\(milliseconds)ms"
  }
}
