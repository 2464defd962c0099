import Chronology

/// Reads the RFC 3339 dates of app receipts straight from their bytes.
///
/// Receipts carry three dates per purchase, so this is the hottest value in a receipt: the forms
/// Apple and Xcode write — `2024-06-01T08:30:00Z`, `2021-04-16T10:59:33+0800`,
/// `…+08:00` — are read without making a string; anything else (fractions of a second, a space
/// for the `T`) goes through `Timestamp(parsing:)`.
enum ReceiptDate {
  /// The instant the text names, or `nil` if it is not a date.
  ///
  /// - Parameter text: The IA5String's octets (ASCII).
  /// - Returns: The instant.
  static func parse(_ text: ArraySlice<UInt8>) -> Timestamp? {
    if let instant = text.withUnsafeBufferPointer(parseCommonForm) { return instant }
    return Timestamp(parsing: String(decoding: text, as: UTF8.self))
  }

  /// `YYYY-MM-DDTHH:MM:SS` followed by `Z`, `±HHMM` or `±HH:MM`, or `nil`.
  static func parseCommonForm(_ text: UnsafeBufferPointer<UInt8>) -> Timestamp? {
    let count = text.count
    guard count >= 20 else { return nil }
    // Every read below is at an offset under 20, or under `count` once it is known to be 24
    // or 25, so the unchecked subscripts stay inside the buffer.
    func digits(_ offset: Int, _ length: Int) -> Int? {
      var value = 0
      for index in offset..<offset + length {
        let digit = Int(text[index]) &- 0x30
        guard digit >= 0 && digit <= 9 else { return nil }
        value = value &* 10 &+ digit
      }
      return value
    }
    guard text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"),
      text[10] == UInt8(ascii: "T"), text[13] == UInt8(ascii: ":"),
      text[16] == UInt8(ascii: ":"),
      let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
      let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2)
    else { return nil }

    var offsetMinutes = 0
    let zone = text[19]
    if count == 20 {
      guard zone == UInt8(ascii: "Z") else { return nil }
    } else if count == 24 || count == 25 {
      guard zone == UInt8(ascii: "+") || zone == UInt8(ascii: "-") else { return nil }
      let minutesAt = count == 25 ? 23 : 22
      guard count == 24 || text[22] == UInt8(ascii: ":"),
        let hours = digits(20, 2), let minutes = digits(minutesAt, 2), hours <= 23,
        minutes <= 59
      else { return nil }
      offsetMinutes = (hours * 60 + minutes) * (zone == UInt8(ascii: "-") ? -1 : 1)
    } else {
      return nil
    }
    let civil = CivilTime(
      year: Int64(year), month: month, day: day, hour: hour, minute: minute, second: second)
    guard civil.isValid else { return nil }
    return civil.timestamp.adding(milliseconds: -Int64(offsetMinutes) * 60_000)
  }
}
