/// Greedy word wrapping for help text.
enum TextWrapper {
  /// Wraps `text` to `width` columns; each line of `text` starts a new paragraph.
  ///
  /// - Parameters:
  ///   - firstLine: What the first line starts with, such as `OVERVIEW: ` or a padded label.
  ///   - indent: The indentation of every other line.
  static func wrap(_ text: String, width: Int, firstLine: String = "", indent: Int = 0) -> String {
    let margin = String(repeating: " ", count: indent)
    return text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
      .map { index, paragraph in
        wrap(
          words: paragraph.split(separator: " ").map(String.init),
          width: width,
          firstLine: index == 0 ? firstLine : margin,
          indent: indent)
      }
      .joined(separator: "\n")
  }

  /// Wraps `words`, which may themselves contain spaces, without ever splitting one; a word
  /// wider than the line gets a line of its own.
  static func wrap(words: [String], width: Int, firstLine: String, indent: Int) -> String {
    let margin = String(repeating: " ", count: indent)
    var lines: [String] = []
    var line = firstLine
    var lineHasWords = false
    for word in words {
      if lineHasWords, line.count + 1 + word.count > width {
        lines.append(line)
        line = margin + word
      } else {
        line += lineHasWords ? " " + word : word
      }
      lineHasWords = true
    }
    lines.append(line)
    return lines.map(trimmingTrailingSpaces).joined(separator: "\n")
  }

  private static func trimmingTrailingSpaces(_ line: String) -> String {
    var line = Substring(line)
    while line.last == " " {
      line.removeLast()
    }
    return String(line)
  }
}
