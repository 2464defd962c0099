import Entitlements

/// Replaces whole-word occurrences of known ids in free text.
///
/// "Whole word" means the occurrence is neither preceded nor followed by a letter, a digit,
/// `-` or `_` (the characters ids and dates are made of), so the id `12` is replaced in
/// "shared with account 12." and "responses/12.json" but not inside "2025-12-01" or
/// "acct-123". Longer ids are replaced first so that an id that contains another one is
/// replaced whole. A short numeric id can still replace a number that only looks like it
/// ("at 12:00"); that hides a little too much, never too little.
struct TextScrubber {
  private let replacements: [(needle: String, replacement: String)]

  init(replacements: [String: String]) {
    self.replacements = replacements.filter { !$0.key.isEmpty }
      .map { (needle: $0.key, replacement: $0.value) }
      .sorted { lhs, rhs in
        lhs.needle.count != rhs.needle.count
          ? lhs.needle.count > rhs.needle.count
          : lhs.needle.utf8.lexicographicallyPrecedes(rhs.needle.utf8)
      }
  }

  func scrub(_ text: String) -> String {
    var text = text
    for (needle, replacement) in replacements {
      text = replacingWholeWords(needle, with: replacement, in: text)
    }
    return text
  }

  func scrub(_ view: EntitlementView) -> EntitlementView {
    var view = view
    view.reason = view.reason.map(scrub)
    return view
  }

  private func replacingWholeWords(_ needle: String, with replacement: String, in text: String)
    -> String
  {
    var result = ""
    var rest = text[...]
    while let found = rest.firstRange(of: needle) {
      let before =
        found.lowerBound > text.startIndex ? text[text.index(before: found.lowerBound)] : nil
      let after = found.upperBound < text.endIndex ? text[found.upperBound] : nil
      result += rest[rest.startIndex..<found.lowerBound]
      if isWordCharacter(before) || isWordCharacter(after) {
        result += rest[found]
      } else {
        result += replacement
      }
      rest = rest[found.upperBound...]
    }
    result += rest
    return result
  }

  private func isWordCharacter(_ character: Character?) -> Bool {
    guard let character else { return false }
    return character.isLetter || character.isNumber || character == "-" || character == "_"
  }
}
