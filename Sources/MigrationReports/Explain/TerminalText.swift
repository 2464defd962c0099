/// Text made safe for a terminal: account ids and explanations are user data, and an escape
/// sequence inside one could clear the screen or rewrite what was printed before it.
public enum TerminalText {
  /// The text with every control character (C0, DEL and C1, line breaks included) written as a
  /// visible escape such as `\u{1B}`, so one field stays on one line and nothing reaches the
  /// terminal as a command.
  ///
  /// - Parameter text: the text.
  /// - Returns: the text without control characters.
  public static func safe(_ text: String) -> String {
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

  /// The text with every scalar that is not printable ASCII written as `\u{…}`: shows which
  /// scalars an id holds, so that `jos\u{E9}` and `jose\u{301}`, which a terminal draws
  /// alike, can be told apart in a message.
  ///
  /// - Parameter text: the text.
  /// - Returns: printable ASCII only.
  public static func escaped(_ text: String) -> String {
    var escaped = ""
    for scalar in text.unicodeScalars {
      if (0x20..<0x7F).contains(scalar.value) {
        escaped.unicodeScalars.append(scalar)
      } else {
        escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
    }
    return escaped
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }
}
