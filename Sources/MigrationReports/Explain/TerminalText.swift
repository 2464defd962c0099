/// Text made safe for a terminal: account ids and explanations are user data, and an escape
/// sequence inside one could clear the screen or rewrite what was printed before it.
enum TerminalText {
  /// The text with every control character (C0, DEL and C1, line breaks included) written as a
  /// visible escape such as `\u{1B}`, so one field stays on one line and nothing reaches the
  /// terminal as a command.
  static func safe(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var safe = ""
    for scalar in text.unicodeScalars {
      if isControl(scalar) {
        safe += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        safe.unicodeScalars.append(scalar)
      }
    }
    return safe
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }
}
