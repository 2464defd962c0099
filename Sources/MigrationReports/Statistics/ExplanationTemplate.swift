/// An explanation with its variable parts — dates, instants and numbers — replaced by
/// placeholders, so that "refunded on 2025-04-22" and "refunded on 2025-06-01" count as one
/// reason in summary.md's "Top explanations".
///
/// Grouping exact sentences split the largest categories into one-account groups (every
/// account has its own dates), so the reasons that matter most never appeared. Product ids and
/// category words stay: they are what a reader acts on.
enum ExplanationTemplate {
  /// The placeholder for a date or an ISO 8601 instant.
  static let date = "‹date›"
  /// The placeholder for any other run of digits (ids, counts, amounts).
  static let number = "‹n›"

  /// `text` with each date or instant and each other digit run replaced.
  static func of(_ text: String) -> String {
    let bytes = Array(text.utf8)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var index = 0
    func isDigit(_ at: Int) -> Bool { at < bytes.count && bytes[at] >= 0x30 && bytes[at] <= 0x39 }
    while index < bytes.count {
      guard isDigit(index) else {
        output.append(bytes[index])
        index += 1
        continue
      }
      // A digit that continues a word (`v2`, `P90D`'s 90 stays a number) is a number.
      var end = index
      while isDigit(end) { end += 1 }
      let isDateStart =
        end - index == 4 && end + 5 < bytes.count && bytes[end] == UInt8(ascii: "-")
        && isDigit(end + 1) && isDigit(end + 2) && bytes[end + 3] == UInt8(ascii: "-")
        && isDigit(end + 4) && isDigit(end + 5)
      if isDateStart {
        end += 6
        // The rest of an instant: `T12:00:00.000Z`, or ` 12:00:00`.
        let instantCharacters: Set<UInt8> = [
          UInt8(ascii: "T"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "Z"),
        ]
        if end < bytes.count, bytes[end] == UInt8(ascii: "T") {
          while end < bytes.count, isDigit(end) || instantCharacters.contains(bytes[end]) {
            end += 1
          }
        }
        output.append(contentsOf: date.utf8)
      } else {
        output.append(contentsOf: number.utf8)
      }
      index = end
    }
    return String(decoding: output, as: UTF8.self)
  }
}
