/// A type whose properties are filled from command-line arguments.
///
/// Declare each argument as a property wrapped in ``Option``, ``Flag``, ``Argument`` or
/// ``OptionGroup``. The parser learns the arguments by building an instance with `init()` and
/// reading its properties, then creates the real instance through `Decodable`, feeding every
/// wrapper its parsed value. Group options shared by several commands in a type that conforms
/// to this protocol and include it with ``OptionGroup``.
public protocol ParsableArguments: Decodable, Sendable {
  /// Creates an instance whose properties describe the arguments instead of holding values.
  init()

  /// Checks the parsed values against each other once every property has its value.
  ///
  /// - Throws: ``ValidationError`` to report a usage error (exit code 2), or any other error,
  ///   which is reported like an error thrown from `run()`.
  mutating func validate() throws
}

extension ParsableArguments {
  /// Accepts every combination of values; override to check values against each other.
  ///
  /// - Throws: Nothing; overrides throw ``ValidationError``.
  public mutating func validate() throws {}
}
