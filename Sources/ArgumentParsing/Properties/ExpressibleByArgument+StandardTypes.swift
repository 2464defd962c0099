// The standard types a command's options use. Numbers go through the standard library's own
// parsers, so `Int64` identifiers never pass through `Double`.

extension String: ExpressibleByArgument {
  /// Takes the argument as it is.
  ///
  /// - Parameter argument: The argument.
  public init?(argument: String) {
    self = argument
  }
}

extension ExpressibleByArgument where Self: FixedWidthInteger {
  /// Reads a decimal integer, rejecting values out of the type's range.
  ///
  /// - Parameter argument: The digits, with an optional sign.
  public init?(argument: String) {
    self.init(argument, radix: 10)
  }
}

extension Int: ExpressibleByArgument {}
extension Int8: ExpressibleByArgument {}
extension Int16: ExpressibleByArgument {}
extension Int32: ExpressibleByArgument {}
extension Int64: ExpressibleByArgument {}
extension UInt: ExpressibleByArgument {}
extension UInt8: ExpressibleByArgument {}
extension UInt16: ExpressibleByArgument {}
extension UInt32: ExpressibleByArgument {}
extension UInt64: ExpressibleByArgument {}

extension Double: ExpressibleByArgument {
  /// Reads a decimal number.
  ///
  /// - Parameter argument: The number, such as `0.5` or `1e3`.
  public init?(argument: String) {
    self.init(argument)
  }
}

extension Float: ExpressibleByArgument {
  /// Reads a decimal number.
  ///
  /// - Parameter argument: The number, such as `0.5` or `1e3`.
  public init?(argument: String) {
    self.init(argument)
  }
}

extension Bool: ExpressibleByArgument {
  /// Reads `true` or `false`.
  ///
  /// - Parameter argument: `true` or `false`.
  public init?(argument: String) {
    self.init(argument)
  }

  /// `true` and `false`.
  public static var allValueStrings: [String] {
    ["true", "false"]
  }
}
