/// Escaping for user data placed in Markdown (GitHub-flavoured, as pull requests and chat
/// tools render it), in running text and in table cells.
///
/// The text always follows other text on its line (a list marker, a table pipe, a label), so
/// only inline syntax can fire; block syntax (`#`, `-`, `1.` at the start of a line) cannot.
/// Escaping only what can fire keeps the file readable as plain text, which is how chat tools
/// without Markdown show it.
enum MarkdownText {
  /// The text with inline Markdown syntax backslash-escaped (`\`, `` ` ``, `*`, `[`, `]`, `|`,
  /// `~`, and `_` where it could start or end emphasis), `<`, `>` and `&` as character
  /// references (so no HTML passes through), line breaks as spaces (a table row is one line),
  /// and other control characters as U+FFFD.
  static func escape(_ text: String) -> String {
    let scalars = Array(text.unicodeScalars)
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count + 8)
    for (index, scalar) in scalars.enumerated() {
      switch scalar {
      case "\\", "`", "*", "[", "]", "|", "~":
        escaped += "\\"
        escaped.unicodeScalars.append(scalar)
      case "_":
        // GitHub never reads an underscore inside a word as emphasis: auto_renew_status stays.
        let before = index > 0 ? scalars[index - 1] : nil
        let after = index + 1 < scalars.count ? scalars[index + 1] : nil
        if isWordScalar(before) && isWordScalar(after) {
          escaped += "_"
        } else {
          escaped += "\\_"
        }
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "&": escaped += "&amp;"
      case "\n", "\r", "\t": escaped += " "
      default:
        if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
          escaped += "\u{FFFD}"
        } else {
          escaped.unicodeScalars.append(scalar)
        }
      }
    }
    return escaped
  }

  private static func isWordScalar(_ scalar: Unicode.Scalar?) -> Bool {
    guard let scalar else { return false }
    return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
  }
}
