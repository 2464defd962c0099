/// A set of values Apple documents today but may extend: known values get typed cases, and any
/// other value is kept as sent, so that a payload decoded by this version and encoded again loses
/// nothing.
///
/// Conforming types have a non-failable `init(rawValue:)`: every raw value is representable.
public protocol OpenEnumeration: RawRepresentable, Hashable, Sendable, CustomStringConvertible
where RawValue: Hashable & Sendable {
  /// The value for a raw value; values without a typed case are kept as unknown.
  ///
  /// - Parameter rawValue: The value exactly as Apple sends it.
  init(rawValue: RawValue)
}

extension OpenEnumeration {
  /// The raw value, as Apple sends it.
  public var description: String { "\(rawValue)" }
}
