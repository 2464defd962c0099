import MigrationPipeline
import Terminal

/// Prints the rows of a token mapping file that could not be used.
enum QuarantinedTokenRows {
  /// Prints up to ten quarantined rows (file:line: reason), and how many more there are, on
  /// standard error.
  static func print(_ rows: [AccountTokenMappingFile.QuarantinedRow]) {
    guard !rows.isEmpty else { return }
    var text = "\(rows.count) row(s) of the token mapping were quarantined:\n"
    for row in rows.prefix(10) {
      text += "  \(row)\n"
    }
    if rows.count > 10 { text += "  … and \(rows.count - 10) more\n" }
    StandardError.write(text)
  }
}
