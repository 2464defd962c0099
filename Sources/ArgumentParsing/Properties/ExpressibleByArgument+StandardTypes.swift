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

extension Int: ExpressibleByArgument {
  /// Reads a decimal integer.
  ///
  /// - Parameter argument: The digits, with an optional sign.
  public init?(argument: String) {
    self.init(argument)
  }
}

extension Int64: ExpressibleByArgument {
  /// Reads a decimal 64-bit integer.
  ///
  /// - Parameter argument: The digits, with an optional sign.
  public init?(argument: String) {
    self.init(argument)
  }
}

extension Double: ExpressibleByArgument {
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
