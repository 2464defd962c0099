/// A value of an old-style property list.
indirect enum PropertyListValue: Hashable, Sendable {
  /// A quoted or unquoted string.
  case string(String)
  /// `<0fbd 771c>`
  case data([UInt8])
  /// `( value, value )`
  case array([PropertyListValue])
  /// `{ key = value; }`
  case dictionary([String: PropertyListValue])
}
