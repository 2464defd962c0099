import CSVReference
import Foundation
import Testing

@testable import MigrationPipeline

/// The team-table readers split lines and fields over UTF-8 bytes. These tests hold them to the
/// straightforward `Character` and Foundation versions they replaced (written out below) on
/// random lines mixing quotes, commas, line breaks, ASCII and non-ASCII white space and
/// multi-byte text, cut into blocks at every kind of boundary. Kind of evidence: our code
/// against a reference written here from the rules (RFC 4180, Foundation's trimming).
@Suite struct CSVLineSplittingTests {
  /// The pieces random lines are made of: each a run of Unicode scalars.
  static let pieces = [
    "a", "Z", "9", "u0001", "com.example.pro", ",", ",", "\"", "\"\"", " ", "  ", "\t", "\u{A0}",
    "\u{2003}", "é", "e\u{301}", "日本", "🙂", "\u{85}", "x y",
  ]

  @Test func fieldsMatchTheCharacterByCharacterSplit() {
    var random = SplitMix(seed: 7)
    for _ in 0..<5_000 {
      let line = (0..<random.next(below: 12)).map { _ in
        Self.pieces[random.next(below: Self.pieces.count)]
      }.joined()
      #expect(
        CSVFields.split(Substring(line)) == CSVReference.fields(line), "\(line.debugDescription)")
    }
  }

  /// Checked on every line of up to 8 characters over a letter, a comma, a quote and a space,
  /// against the split's own state at the end: a quote after a space or a letter is data and
  /// opens nothing, so the parity of the quotes is not the rule.
  @Test func anUnclosedQuoteIsWhatTheSplitLeavesOpen() {
    var lines = [""]
    var checked = 0
    for _ in 0..<8 {
      lines = lines.flatMap { line in ["a", ",", "\"", " "].map { line + $0 } }
      for line in lines {
        #expect(
          CSVFields.hasUnclosedQuote(Substring(line)) == CSVReference.endsInsideQuotes(line),
          "\(line.debugDescription)")
        checked += 1
      }
    }
    #expect(checked == (1...8).map { 1 << (2 * $0) }.reduce(0, +))
  }

  @Test func trimmingMatchesFoundation() {
    var random = SplitMix(seed: 11)
    let edges = [
      " ", "\t", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{A0}", "\u{85}", "\u{2028}", "x", "é",
    ]
    for _ in 0..<5_000 {
      let text = (0..<random.next(below: 6)).map { _ in edges[random.next(below: edges.count)] }
        .joined()
      for newlines in [false, true] {
        let set: CharacterSet = newlines ? .whitespacesAndNewlines : .whitespaces
        #expect(
          String(CSVFields.trimmed(Substring(text), newlines: newlines))
            == text.trimmingCharacters(in: set), "\(text.debugDescription) \(newlines)")
      }
    }
  }

  @Test func linesMatchTheByteByByteSplitAtEveryBlockBoundary() {
    var random = SplitMix(seed: 3)
    let pieces = ["a", "bc", "\n", "\r", "\r\n", "\n\r", "é", "日本", "🙂", ",", " "]
    for _ in 0..<2_000 {
      var bytes = Array(
        (0..<random.next(below: 16)).map { _ in pieces[random.next(below: pieces.count)] }.joined()
          .utf8)
      // Now and then a byte that is not UTF-8 at all, or half of a multi-byte character.
      if random.next(below: 4) == 0 { bytes.insert(0xFF, at: random.next(below: bytes.count + 1)) }
      let expected = CSVReference.lines(bytes)
      // Cut into blocks of random sizes, including empty ones.
      var splitter = LineSplitter()
      var lines: [String] = []
      var offset = 0
      while offset < bytes.count {
        let size = min(bytes.count - offset, random.next(below: 5))
        lines += splitter.feed(Data(bytes[offset..<offset + size]))
        offset += size
      }
      if let last = splitter.finish() { lines.append(last) }
      #expect(lines == expected, "\(bytes)")
    }
  }

  @Test func finishingLeavesTheSplitterAsIfNew() {
    var splitter = LineSplitter()
    #expect(splitter.feed(Data("a\r".utf8)) == ["a"])
    #expect(splitter.finish() == nil)
    // A CR that ended the last input must not swallow this input's leading LF.
    #expect(splitter.feed(Data("\nb\n".utf8)) == ["", "b"])
  }
}
