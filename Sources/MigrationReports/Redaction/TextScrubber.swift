import Entitlements

/// Replaces whole-word occurrences of known ids in free text.
///
/// "Whole word" means the occurrence is neither preceded nor followed by a letter, a digit,
/// `-` or `_` (the characters ids and dates are made of), so the id `12` is replaced in
/// "shared with account 12." and "responses/12.json" but not inside "2025-12-01" or
/// "acct-123". Longer ids are replaced first so that an id that contains another one is
/// replaced whole. A short numeric id can still replace a number that only looks like it
/// ("at 12:00"); that hides a little too much, never too little.
///
/// Ids are found by characters, as Swift compares strings, so an id is hidden in whichever
/// Unicode normalization the text spells it. Two ids that differ only in normalization
/// (`jos\u{E9}` and `jose\u{301}`, two accounts in the store) are therefore found together;
/// each occurrence takes the replacement of the id with exactly its bytes.
struct TextScrubber {
  /// One entry per group of canonically equivalent ids: the needle searched for, and each
  /// spelling's replacement.
  private let needles: [(needle: String, spellings: [(id: String, replacement: String)])]

  /// A scrubber of `replacements`; an id given twice (the same bytes) keeps its last one.
  init(replacements: [(id: String, replacement: String)]) {
    // Keyed by `String` on purpose: equivalent spellings land in one group.
    var groups: [String: [(id: String, replacement: String)]] = [:]
    for pair in replacements where !pair.id.isEmpty {
      var group = groups[pair.id] ?? []
      if let index = group.firstIndex(where: { AccountKey.haveSameBytes($0.id, pair.id) }) {
        group[index] = pair
      } else {
        group.append(pair)
      }
      groups[pair.id] = group
    }
    needles = groups.values.map { (needle: $0[0].id, spellings: $0) }
      .sorted { lhs, rhs in
        lhs.needle.count != rhs.needle.count
          ? lhs.needle.count > rhs.needle.count
          : lhs.needle.utf8.lexicographicallyPrecedes(rhs.needle.utf8)
      }
  }

  func scrub(_ text: String) -> String {
    var text = text
    for (needle, spellings) in needles {
      text = replacingWholeWords(needle, with: spellings, in: text)
    }
    return text
  }

  func scrub(_ view: EntitlementView) -> EntitlementView {
    var view = view
    view.reason = view.reason.map(scrub)
    return view
  }

  private func replacingWholeWords(
    _ needle: String, with spellings: [(id: String, replacement: String)], in text: String
  ) -> String {
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
        let found = String(rest[found])
        let exact = spellings.first { AccountKey.haveSameBytes($0.id, found) } ?? spellings[0]
        result += exact.replacement
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
