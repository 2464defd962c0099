// MARK: - Numbers

extension JSONReader {
  /// The parts of a number literal, kept as byte positions so that no digit passes through
  /// floating point unless the caller asks for a `Double`.
  @usableFromInline struct NumberScan {
    @usableFromInline var start: Int
    @usableFromInline var end: Int
    @usableFromInline var isNegative: Bool
    /// Offsets of the integer digits.
    @usableFromInline var integerDigits: Range<Int>
    /// Offsets of the fraction digits (empty when there is no fraction).
    @usableFromInline var fractionDigits: Range<Int>
    /// The decimal exponent (0 when there is none), saturated to ±100 000.
    @usableFromInline var exponent: Int

    @inlinable
    init(
      start: Int, end: Int, isNegative: Bool, integerDigits: Range<Int>,
      fractionDigits: Range<Int>, exponent: Int
    ) {
      self.start = start
      self.end = end
      self.isNegative = isNegative
      self.integerDigits = integerDigits
      self.fractionDigits = fractionDigits
      self.exponent = exponent
    }
  }

  /// Reads a number that must be an integer in `Int64` range. `12`, `-7`, `1.0`, `1.5e3` and
  /// `1e2` are integers; `1.5` is not. The conversion is exact: no `Double` is involved.
  ///
  /// - Returns: the value.
  /// - Throws: `JSONError.typeMismatch` for a non-number, `.numberOutOfRange` for a fraction or
  ///   a value beyond `Int64`.
  @inlinable
  public mutating func readInt64() throws(JSONError) -> Int64 {
    let scan = try scanNumberValue()
    state = .afterValue
    guard let value = integerValue(scan) else {
      throw JSONError(.numberOutOfRange("a 64-bit integer"), at: scan.start)
    }
    return value
  }

  /// Reads a number as a `Double` (for prices and percentages, never for ids or dates).
  ///
  /// - Returns: the nearest `Double`.
  /// - Throws: `JSONError.typeMismatch` for a non-number, or a syntax error.
  public mutating func readDouble() throws(JSONError) -> Double {
    let text = try readNumberText()
    guard let value = Double(text) else {
      throw JSONError(.numberOutOfRange("a Double"), at: position)
    }
    return value
  }

  /// Reads a number and returns its literal text, exactly as written.
  ///
  /// - Returns: the number's text, such as `-12.50e3`.
  /// - Throws: `JSONError.typeMismatch` for a non-number, or a syntax error.
  public mutating func readNumberText() throws(JSONError) -> String {
    let scan = try scanNumberValue()
    state = .afterValue
    return String(
      decoding: UnsafeRawBufferPointer(start: base + scan.start, count: scan.end - scan.start),
      as: UTF8.self)
  }

  /// Scans the number that must come next, failing with a type mismatch for anything else.
  @inlinable
  mutating func scanNumberValue() throws(JSONError) -> NumberScan {
    skipWhitespace()
    guard position < count else { throw JSONError(.unexpectedEnd, at: position) }
    let byte = base[position]
    guard byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    else {
      throw try mismatch(expected: "a number")
    }
    return try scanNumber()
  }

  /// Scans `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?` at `position`.
  @usableFromInline
  mutating func scanNumber() throws(JSONError) -> NumberScan {
    let start = position
    var isNegative = false
    if base[position] == UInt8(ascii: "-") {
      isNegative = true
      position += 1
    }
    let integerStart = position
    guard position < count, isDigit(base[position]) else {
      throw position < count
        ? JSONError(.invalidNumber, at: position) : JSONError(.unexpectedEnd, at: position)
    }
    if base[position] == UInt8(ascii: "0") {
      position += 1
    } else {
      while position < count, isDigit(base[position]) { position += 1 }
    }
    let integerDigits = integerStart..<position
    var fractionDigits = position..<position
    if position < count, base[position] == UInt8(ascii: ".") {
      position += 1
      let fractionStart = position
      while position < count, isDigit(base[position]) { position += 1 }
      guard position > fractionStart else {
        throw position < count
          ? JSONError(.invalidNumber, at: position) : JSONError(.unexpectedEnd, at: position)
      }
      fractionDigits = fractionStart..<position
    }
    var exponent = 0
    if position < count, base[position] == UInt8(ascii: "e") || base[position] == UInt8(ascii: "E")
    {
      position += 1
      var exponentIsNegative = false
      if position < count,
        base[position] == UInt8(ascii: "+") || base[position] == UInt8(ascii: "-")
      {
        exponentIsNegative = base[position] == UInt8(ascii: "-")
        position += 1
      }
      let exponentStart = position
      while position < count, isDigit(base[position]) {
        exponent = min(exponent * 10 + Int(base[position] - UInt8(ascii: "0")), 100_000)
        position += 1
      }
      guard position > exponentStart else {
        throw position < count
          ? JSONError(.invalidNumber, at: position) : JSONError(.unexpectedEnd, at: position)
      }
      if exponentIsNegative { exponent = -exponent }
    }
    // A number must end at a delimiter: `12abc` and `0123` are not numbers.
    if position < count {
      switch base[position] {
      case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"): break
      default: throw JSONError(.invalidNumber, at: position)
      }
    }
    return NumberScan(
      start: start, end: position, isNegative: isNegative, integerDigits: integerDigits,
      fractionDigits: fractionDigits, exponent: exponent)
  }

  /// The exact integer a scanned number denotes, or `nil` when it has a non-zero fraction or
  /// does not fit `Int64`.
  @usableFromInline
  func integerValue(_ scan: NumberScan) -> Int64? {
    // Fast path: plain integers, by far the common case.
    if scan.fractionDigits.isEmpty && scan.exponent == 0 {
      return accumulate(digits: [scan.integerDigits], negative: scan.isNegative, scale: 0)
    }
    // The significant digits are integer + fraction; the value is those digits times
    // 10^(exponent - fraction count). Trailing digits that a negative scale removes must be 0.
    let scale = scan.exponent - scan.fractionDigits.count
    var digitRanges = [scan.integerDigits, scan.fractionDigits]
    if scale < 0 {
      var dropped = -scale
      while dropped > 0 {
        guard let last = digitRanges.indices.last(where: { !digitRanges[$0].isEmpty }) else {
          break
        }
        let range = digitRanges[last]
        if base[range.upperBound - 1] != UInt8(ascii: "0") { return nil }
        digitRanges[last] = range.lowerBound..<range.upperBound - 1
        dropped -= 1
      }
      // All digits consumed: the value is zero (for example 0.000e2).
      return accumulate(digits: digitRanges, negative: scan.isNegative, scale: 0)
    }
    return accumulate(digits: digitRanges, negative: scan.isNegative, scale: scale)
  }

  @usableFromInline
  func accumulate(digits: [Range<Int>], negative: Bool, scale: Int) -> Int64? {
    var magnitude: UInt64 = 0
    for range in digits {
      for index in range {
        let digit = UInt64(base[index] - UInt8(ascii: "0"))
        let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
        let (sum, overflow2) = times10.addingReportingOverflow(digit)
        if overflow1 || overflow2 { return nil }
        magnitude = sum
      }
    }
    if magnitude != 0 {
      for _ in 0..<scale {
        let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
        if overflow { return nil }
        magnitude = times10
      }
    }
    if negative {
      guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
      return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
    }
    guard magnitude <= UInt64(Int64.max) else { return nil }
    return Int64(magnitude)
  }

  @inlinable
  func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }
}
