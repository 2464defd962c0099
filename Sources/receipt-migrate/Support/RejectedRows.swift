import MigrationPipeline
import Terminal

/// Prints the input rows a run could not use: the entitlement table's and the token mapping's.
enum RejectedRows {
  /// Prints up to ten rejected rows of the entitlement table, and how many more there are, on
  /// standard error.
  static func print(_ rows: [(line: Int, reason: String)]) {
    print(
      rows.map { "line \($0.line): \($0.reason)" },
      heading: "of the entitlement table were rejected")
  }

  /// Prints up to ten quarantined rows of the token mapping (file:line: reason), and how many
  /// more there are, on standard error.
  static func print(_ rows: [AccountTokenMappingFile.QuarantinedRow]) {
    print(rows.map { "\($0)" }, heading: "of the token mapping were quarantined")
  }

  private static func print(_ descriptions: [String], heading: String) {
    guard !descriptions.isEmpty else { return }
    var text = "\(descriptions.count) row(s) \(heading):\n"
    for description in descriptions.prefix(10) {
      text += "  \(description)\n"
    }
    if descriptions.count > 10 { text += "  … and \(descriptions.count - 10) more\n" }
    StandardError.write(text)
  }
}
