// MARK: - Parsing

extension Timestamp {
  /// Parses the instant forms a user or a data file may give: ISO 8601 in UTC or with an
  /// offset (`2024-03-01T12:00:00Z`, `2024-03-01T12:00:00.250+02:00`, `2024-03-01 12:00:00Z`),
  /// a bare date (`2024-03-01`, midnight UTC), or integer Unix milliseconds (`1709294400000`).
  ///
  /// - Parameter text: the text to parse; surrounding spaces are ignored.
  /// - Returns: `nil` when the text is none of these forms or names an impossible date.
  public init?(parsing text: some StringProtocol) {
    let bytes = Array(text.utf8).trimmingSpaces()
    guard !bytes.isEmpty else { return nil }
    if bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
      if bytes.count == 8 { return nil }  // 20240301 is ambiguous; ask for a dash-separated date
      guard bytes.count <= 18, let ms = Int64(String(decoding: bytes, as: UTF8.self)) else {
        return nil
      }
      self.init(millisecondsSince1970: ms)
      return
    }
    var scanner = ISO8601Scanner(bytes)
    guard let parsed = scanner.scan() else { return nil }
    self = parsed
  }
}

private struct ISO8601Scanner {
  let bytes: [UInt8]
  var index = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  mutating func scan() -> Timestamp? {
    guard let year = number(digits: 4), literal("-"), let month = number(digits: 2),
      literal("-"), let day = number(digits: 2)
    else { return nil }
    var civil = CivilTime(year: Int64(year), month: month, day: day)
    var offsetMinutes = 0
    if index < bytes.count {
      guard literal("T") || literal("t") || literal(" "), let hour = number(digits: 2),
        literal(":"), let minute = number(digits: 2)
      else { return nil }
      civil.hour = hour
      civil.minute = minute
      if literal(":") {
        guard let second = number(digits: 2) else { return nil }
        civil.second = second
        if literal(".") || literal(",") {
          let start = index
          while index < bytes.count, isDigit(bytes[index]) { index += 1 }
          guard index > start else { return nil }
          // Milliseconds are the precision of the domain; further digits are truncated.
          let fraction = bytes[start..<min(index, start + 3)]
          var value = 0
          for digit in fraction { value = value * 10 + Int(digit - UInt8(ascii: "0")) }
          for _ in fraction.count..<3 { value *= 10 }
          civil.millisecond = value
        }
      }
      guard let offset = scanOffset() else { return nil }
      offsetMinutes = offset
    }
    guard index == bytes.count, civil.isValid else { return nil }
    return civil.timestamp.adding(
      milliseconds: -Int64(offsetMinutes) * Timestamp.millisecondsPerMinute)
  }

  private mutating func scanOffset() -> Int? {
    if literal("Z") || literal("z") { return 0 }
    let sign: Int
    if literal("+") {
      sign = 1
    } else if literal("-") {
      sign = -1
    } else {
      return nil
    }
    guard let hours = number(digits: 2), hours <= 23 else { return nil }
    _ = literal(":")
    guard let minutes = number(digits: 2), minutes <= 59 else { return nil }
    return sign * (hours * 60 + minutes)
  }

  private mutating func literal(_ character: Unicode.Scalar) -> Bool {
    guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
    index += 1
    return true
  }

  private mutating func number(digits: Int) -> Int? {
    guard index + digits <= bytes.count else { return nil }
    var value = 0
    for offset in 0..<digits {
      let byte = bytes[index + offset]
      guard isDigit(byte) else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    index += digits
    return value
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }
}

extension Array where Element == UInt8 {
  fileprivate func trimmingSpaces() -> [UInt8] {
    var start = startIndex
    var end = endIndex
    while start < end, self[start] == UInt8(ascii: " ") { start += 1 }
    while end > start, self[end - 1] == UInt8(ascii: " ") { end -= 1 }
    return Array(self[start..<end])
  }
}
