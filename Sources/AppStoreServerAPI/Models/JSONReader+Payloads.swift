import Chronology
import JSON

// Readers for the member types of App Store payloads. They accept a value's scalar spellings
// (Apple sends ids as strings and dates as numbers, but a number where a string belongs must not
// lose a payload) and `null` for "absent"; objects and arrays where a scalar belongs stay errors.

extension JSONReader {
  /// A string member, or `nil` for `null`.
  mutating func readOptionalString() throws(JSONError) -> String? {
    try readLenientString()
  }

  /// An integer member, or `nil` for `null`.
  mutating func readOptionalInt64() throws(JSONError) -> Int64? {
    try readLenientInt64()
  }

  /// An integer member that must fit `Int`, or `nil` for `null`.
  mutating func readOptionalInt() throws(JSONError) -> Int? {
    let start = offset
    guard let value = try readLenientInt64() else { return nil }
    guard let narrowed = Int(exactly: value) else {
      throw JSONError(.numberOutOfRange("Int"), at: start)
    }
    return narrowed
  }

  /// A boolean member, or `nil` for `null`.
  mutating func readOptionalBool() throws(JSONError) -> Bool? {
    try readLenientBool()
  }

  /// A Unix-milliseconds date member, or `nil` for `null`. StoreKit testing in Xcode writes
  /// fractions of a millisecond (`1697679936049.7297`); they are dropped, the instant rounded
  /// down to its millisecond, as Apple's own libraries compare such dates.
  mutating func readOptionalTimestamp() throws(JSONError) -> Timestamp? {
    var probe = self
    do {
      let value = try probe.readLenientInt64()
      self = probe
      return value.map(Timestamp.init(millisecondsSince1970:))
    } catch {
      guard case .numberOutOfRange = error.kind else { throw error }
      let text = try readLenientString() ?? ""
      guard let milliseconds = Self.wholeMilliseconds(text) else { throw error }
      return Timestamp(millisecondsSince1970: milliseconds)
    }
  }

  /// The whole milliseconds of a decimal with a fraction (`1697679936049.7297` is
  /// 1697679936049, `-1.5` is -2), or `nil` for anything else (an exponent, a value beyond
  /// `Int64`).
  static func wholeMilliseconds(_ text: String) -> Int64? {
    var trimmed = Substring(text)
    while trimmed.first == " " { trimmed.removeFirst() }
    while trimmed.last == " " { trimmed.removeLast() }
    let parts = trimmed.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2, let whole = Int64(parts[0]), !parts[1].isEmpty,
      parts[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
    else { return nil }
    let hasFraction = parts[1].utf8.contains { $0 != 0x30 }
    // Rounded down: a negative instant's fraction moves it one millisecond earlier.
    if parts[0].hasPrefix("-") && hasFraction {
      let (earlier, overflow) = whole.subtractingReportingOverflow(1)
      return overflow ? nil : earlier
    }
    return whole
  }

  /// A string-valued enumeration member, or `nil` for `null`.
  mutating func readOptional<Value: OpenEnumeration>(_: Value.Type) throws(JSONError) -> Value?
  where Value.RawValue == String {
    try readLenientString().map(Value.init(rawValue:))
  }

  /// An integer-valued enumeration member, or `nil` for `null`.
  mutating func readOptional<Value: OpenEnumeration>(_: Value.Type) throws(JSONError) -> Value?
  where Value.RawValue == Int64 {
    try readLenientInt64().map(Value.init(rawValue:))
  }

  /// An array of strings, or `nil` for `null`.
  mutating func readOptionalStrings() throws(JSONError) -> [String]? {
    if try readNullIfPresent() { return nil }
    var values: [String] = []
    try beginArray()
    while try nextElement() {
      if let value = try readLenientString() { values.append(value) }
    }
    return values
  }

  /// An array of values read by `element`, or `nil` for `null`.
  mutating func readOptionalArray<Element>(
    _ element: (inout JSONReader) throws(JSONError) -> Element
  ) throws(JSONError) -> [Element]? {
    if try readNullIfPresent() { return nil }
    var values: [Element] = []
    try beginArray()
    while try nextElement() {
      values.append(try element(&self))
    }
    return values
  }
}

// MARK: - Whole documents

extension JSONReader {
  /// Runs `body` with a reader over `bytes` and checks that nothing follows the value it read.
  static func reading<Value>(
    _ bytes: some Sequence<UInt8>, _ body: (inout JSONReader) throws(JSONError) -> Value
  ) throws(JSONError) -> Value {
    let outcome: Result<Value, JSONError> = bytes.withContiguousBytes { buffer in
      var reader = JSONReader(buffer)
      do throws(JSONError) {
        let value = try body(&reader)
        try reader.finish()
        return .success(value)
      } catch {
        return .failure(error)
      }
    }
    return try outcome.get()
  }
}
