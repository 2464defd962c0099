/// The help text of one argument; a plain string literal is its abstract.
public struct ArgumentHelp: ExpressibleByStringInterpolation, Sendable {
  /// A short description shown next to the argument in help.
  public var abstract: String
  /// Longer text shown below the abstract.
  public var discussion: String
  /// The placeholder for the value, as in `--db <path>`; `nil` uses the property name.
  public var valueName: String?
  /// Whether the argument appears in help and usage text.
  public var visibility: ArgumentVisibility

  /// Creates help text.
  ///
  /// - Parameters:
  ///   - abstract: A short description shown next to the argument.
  ///   - discussion: Longer text shown below the abstract.
  ///   - valueName: The placeholder for the value; `nil` uses the property name in kebab-case.
  ///   - visibility: Whether the argument appears in help and usage text.
  public init(
    _ abstract: String = "",
    discussion: String = "",
    valueName: String? = nil,
    visibility: ArgumentVisibility = .default
  ) {
    self.abstract = abstract
    self.discussion = discussion
    self.valueName = valueName
    self.visibility = visibility
  }

  /// Creates help text whose abstract is the literal.
  ///
  /// - Parameter value: The abstract.
  public init(stringLiteral value: String) {
    self.init(value)
  }
}
