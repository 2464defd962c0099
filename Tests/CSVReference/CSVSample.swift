/// Random CSV made to be read the same way by any RFC 4180 reader: fields of letters, digits,
/// punctuation, commas, quotes and non-ASCII text (composed and decomposed accents, CJK, an
/// emoji), quoted when they must be and at random when they need not, with no white space at
/// either end of a field (this project trims it; a plain RFC 4180 reader keeps it) and, unless
/// asked for, no line break inside one.
public struct CSVSample {
  private var random: SplitMix

  /// A generator; the same seed gives the same fields.
  public init(seed: UInt64) {
    random = SplitMix(seed: seed)
  }

  /// A number below `bound`.
  public mutating func next(below bound: Int) -> Int {
    random.next(below: bound)
  }

  private static let edgePieces = [
    "a", "Z", "7", "0", "-", "_", "@", ".", "=", ",", "\"", "\u{E9}", "e\u{301}",
    "\u{65E5}\u{672C}",
    "\u{1F600}", "'", ";",
  ]
  private static let innerPieces = edgePieces + [" ", "\t", "\u{A0}", "  "]
  private static let lineBreaks = ["\n", "\r\n", "\r"]

  /// A field of up to `maximumPieces` pieces; never empty when `nonEmpty`.
  public mutating func field(
    maximumPieces: Int = 8, nonEmpty: Bool = false, lineBreaks: Bool = false
  ) -> String {
    let count = next(below: maximumPieces + 1)
    guard count > 0 || nonEmpty else { return "" }
    let length = max(count, 1)
    var text = ""
    for index in 0..<length {
      let edge = index == 0 || index == length - 1
      var pieces = edge ? Self.edgePieces : Self.innerPieces
      if lineBreaks && !edge { pieces += Self.lineBreaks }
      text += pieces[next(below: pieces.count)]
    }
    return text
  }

  /// A row's line: each field quoted when it holds a comma, a quote or a line break, and a
  /// quarter of the others too.
  public mutating func line(_ fields: [String]) -> String {
    fields.map { field in
      let needsQuotes = field.utf8.contains { [0x2C, 0x22, 0x0A, 0x0D].contains($0) }
      guard needsQuotes || next(below: 4) == 0 else { return field }
      return "\"" + field.replacingQuotes() + "\""
    }.joined(separator: ",")
  }

  private static let loosePieces = ["a", "Z", "7", "-", "_", ".", "\u{E9}", "\u{65E5}", " "]

  /// A field written as people and scripts write CSV by hand, to be put in a line as it
  /// stands: a quote after a leading space (`  "abc"`), a quote in mid-field (`ab"c`), text after
  /// a closing quote (`"ab"cd`, `"ab" `), or a well-quoted field with a doubled quote. Python's
  /// `csv` reads every quote here but the last kind's, and the first of the third, as data. It
  /// holds no comma and no line break, and no white space at its ends but spaces.
  public mutating func looseField() -> String {
    var text = ""
    for index in 0..<(1 + next(below: 5)) {
      let pieces = index == 0 ? Self.loosePieces.dropLast() : Self.loosePieces[...]
      text += pieces[next(below: pieces.count)]
    }
    let spaces = String(repeating: " ", count: 1 + next(below: 2))
    switch next(below: 6) {
    case 0: return spaces + "\"" + text + "\""
    case 1: return spaces + "\"" + text
    case 2: return text + "\"" + text
    case 3: return "\"" + text + "\"" + text + "\"" + text
    case 4: return "\"" + text + "\"" + spaces
    default: return "\"" + text + "\"\"" + text + "\""
    }
  }

  /// A line break: LF mostly, CRLF often, a lone CR (classic Mac OS) now and then.
  public mutating func lineBreak() -> String {
    switch next(below: 10) {
    case 0..<3: "\r\n"
    case 3: "\r"
    default: "\n"
    }
  }
}

extension String {
  fileprivate func replacingQuotes() -> String {
    var result = ""
    for character in self {
      result.append(character)
      if character == "\"" { result.append("\"") }
    }
    return result
  }
}
