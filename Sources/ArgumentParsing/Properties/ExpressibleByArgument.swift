/// A type whose values can be read from one command-line argument.
///
/// Enumerations with raw values get the conformance for free; if they are also `CaseIterable`,
/// help lists their values and an invalid value names the valid ones:
///
/// ```swift
/// enum Format: String, CaseIterable, ExpressibleByArgument {
///   case ndjson, csv
/// }
/// ```
public protocol ExpressibleByArgument: Sendable {
  /// Reads a value from its command-line spelling.
  ///
  /// - Parameter argument: The argument as the user typed it.
  init?(argument: String)

  /// The value as help shows it after `default:`.
  var defaultValueDescription: String { get }

  /// Every valid spelling, listed in help and in errors; empty when the values are open-ended.
  static var allValueStrings: [String] { get }
}

extension ExpressibleByArgument {
  /// The value's description.
  public var defaultValueDescription: String {
    String(describing: self)
  }

  /// No list: the values are open-ended.
  public static var allValueStrings: [String] {
    []
  }
}

extension ExpressibleByArgument where Self: RawRepresentable, RawValue: ExpressibleByArgument {
  /// Reads the raw value and looks the case up by it.
  ///
  /// - Parameter argument: The raw value as the user typed it.
  public init?(argument: String) {
    guard let rawValue = RawValue(argument: argument) else { return nil }
    self.init(rawValue: rawValue)
  }

  /// The raw value, which is what users type.
  public var defaultValueDescription: String {
    rawValue.defaultValueDescription
  }
}

extension ExpressibleByArgument
where Self: CaseIterable, Self: RawRepresentable, RawValue: ExpressibleByArgument {
  /// The raw values of every case, in declaration order.
  public static var allValueStrings: [String] {
    allCases.map(\.defaultValueDescription)
  }
}
