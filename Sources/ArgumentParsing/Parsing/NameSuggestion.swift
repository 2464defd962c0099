/// Finds the name a user most likely meant, for "Did you mean …?" in usage errors.
///
/// Edit distance (Levenshtein: insertions, deletions and substitutions of one character each)
/// between what was typed and every known name; the closest wins when it is close enough to
/// be a typo — at most a third of the typed length, and never more than three edits — so
/// unrelated words get no suggestion.
enum NameSuggestion {
  /// The candidate closest to `typed`, or `nil` when none is plausibly what was meant.
  static func closest(to typed: String, among candidates: [String]) -> String? {
    let limit = min(3, max(1, typed.count / 3))
    var best: (name: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(typed, candidate)
      if distance <= limit && distance < (best?.distance ?? .max) {
        best = (candidate, distance)
      }
    }
    return best?.name
  }

  /// The Levenshtein distance between two strings, by characters, in one row of memory.
  static func editDistance(_ a: String, _ b: String) -> Int {
    let source = Array(a)
    let target = Array(b)
    if source.isEmpty { return target.count }
    if target.isEmpty { return source.count }
    var row = Array(0...target.count)
    for (i, character) in source.enumerated() {
      var diagonal = row[0]
      row[0] = i + 1
      for j in 0..<target.count {
        let above = row[j + 1]
        row[j + 1] = min(above + 1, row[j] + 1, diagonal + (character == target[j] ? 0 : 1))
        diagonal = above
      }
    }
    return row[target.count]
  }
}
