/// Escaping for text placed in HTML (and SVG) content and attribute values.
///
/// Account ids, explanations and file names are user data: every one of them goes through
/// ``escape(_:)`` before it reaches the page, in text and in quoted attributes alike.
enum HTMLText {
  /// The text with `&`, `<`, `>`, `"` and `'` as character references, and control characters
  /// (other than tab, line feed and carriage return) as U+FFFD, which HTML forbids anyway.
  static func escape(_ text: String) -> String {
    var needsWork = false
    for scalar in text.unicodeScalars where needsEscaping(scalar) {
      needsWork = true
      break
    }
    guard needsWork else { return text }
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      case "'": escaped += "&#39;"
      case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
      default:
        if isControl(scalar) {
          escaped += "\u{FFFD}"
        } else {
          escaped.unicodeScalars.append(scalar)
        }
      }
    }
    return escaped
  }

  private static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "&", "<", ">", "\"", "'": return true
    case "\t", "\n", "\r": return false
    default: return isControl(scalar)
    }
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }
}
