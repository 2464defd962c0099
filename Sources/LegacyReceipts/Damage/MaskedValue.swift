/// Recognises values an archive masked before it was shared or stored: `*****`, `xxx`,
/// `37xxxxxxxxx89` (the first and last digits kept), `[REDACTED]`.
///
/// A mask is not damage to be guessed around: it says the value was deliberately removed, and
/// the reason a set-aside field gives says so ("masked") rather than calling it malformed.
enum MaskedValue {
  /// The characters archives mask with.
  private static let maskCharacters: Set<Character> = ["*", "x", "X", "•", "#", "●"]

  /// The words archives put in place of a value.
  private static let maskWords: Set<String> = ["redacted", "masked", "hidden", "removed"]

  /// Whether `text` is a masked value: only mask characters and digits with at least three mask
  /// characters (or nothing but mask characters), or a word such as `REDACTED`, with or without
  /// brackets.
  ///
  /// - Parameter text: the value as read.
  /// - Returns: `true` for a mask.
  static func isMask(_ text: String) -> Bool {
    var trimmed = Substring(text)
    while trimmed.first == " " { trimmed.removeFirst() }
    while trimmed.last == " " { trimmed.removeLast() }
    guard !trimmed.isEmpty else { return false }
    if let first = trimmed.first, let last = trimmed.last,
      (first == "[" && last == "]") || (first == "<" && last == ">")
    {
      return maskWords.contains(trimmed.dropFirst().dropLast().lowercased())
    }
    if maskWords.contains(trimmed.lowercased()) { return true }
    var masks = 0
    for character in trimmed {
      if maskCharacters.contains(character) {
        masks += 1
      } else if !character.isASCII || !character.isNumber {
        return false
      }
    }
    return masks >= 3 || masks == trimmed.count
  }
}
