import Terminal

/// Prints the entitlement table rows a run could not use.
enum RejectedRows {
  /// Prints up to ten rejected rows, and how many more there are, on standard error.
  static func print(_ rows: [(line: Int, reason: String)]) {
    guard !rows.isEmpty else { return }
    var text = "\(rows.count) row(s) of the entitlement table were rejected:\n"
    for row in rows.prefix(10) {
      text += "  line \(row.line): \(row.reason)\n"
    }
    if rows.count > 10 { text += "  … and \(rows.count - 10) more\n" }
    StandardError.write(text)
  }
}
