/// One CSV field, quoted as RFC 4180 says and defused for spreadsheets.
enum CSVField {
  /// The field as it goes into a line.
  ///
  /// A field that contains a comma, a double quote, a line break or leading or trailing
  /// spaces is quoted, with its quotes doubled. A field that begins with `=`, `+`, `-`, `@`,
  /// a tab or a carriage return is prefixed with `'`, because spreadsheets would otherwise run
  /// it as a formula (account ids are user data); `discrepancies.ndjson` carries every value
  /// verbatim for scripts.
  static func encode(_ value: String) -> String {
    var value = value
    if let first = value.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(first) {
      value = "'" + value
    }
    let needsQuotes =
      value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
      || value.hasPrefix(" ") || value.hasSuffix(" ")
    guard needsQuotes else { return value }
    return "\"" + value.replacing("\"", with: "\"\"") + "\""
  }

  /// A record: the fields joined by commas, ended by CRLF as RFC 4180 has it.
  static func line(_ fields: [String]) -> String {
    fields.map(encode).joined(separator: ",") + "\r\n"
  }
}
