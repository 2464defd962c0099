/// Decides whether text read from an archive can be an App Store transaction id.
///
/// Apple's transaction ids are strings of decimal digits (at most 20: an unsigned 64-bit
/// number). Archives damage them: spreadsheets and floating-point JSON encoders turn
/// `1000000712345678` into `1.00000071234568E+15` or `1000000712345678.0`, losing digits. A
/// damaged id must never be sent to Apple (it names someone else's purchase or nothing), so it
/// is refused here with the reason, and the record it came from is quarantined.
enum TransactionIdentifierCheck {
  /// The longest id accepted, in digits.
  static let maximumDigits = 20

  /// Why `id` cannot be a transaction id, or `nil` when it can.
  ///
  /// - Parameters:
  ///   - id: the text as read.
  ///   - field: the name the record gave it, for the message.
  static func problem(with id: String, field: String) -> String? {
    if id.isEmpty { return "\(field) is empty" }
    let shown = id.count > 40 ? id.prefix(40) + "…" : Substring(id)
    if id.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
      guard id.utf8.count <= maximumDigits else {
        return
          "\(field) '\(shown)' has \(id.utf8.count) digits; transaction ids have at most \(maximumDigits)"
      }
      return nil
    }
    if id.contains("E+") || id.contains("e+") || id.contains(".") {
      return
        "\(field) '\(shown)' looks like a number rewritten by a spreadsheet or a floating-point encoder (digits are lost); export the ids as text"
    }
    if id.hasPrefix("-") {
      return "\(field) '\(shown)' is negative; transaction ids are strings of digits"
    }
    return "\(field) '\(shown)' is not a string of digits"
  }
}
