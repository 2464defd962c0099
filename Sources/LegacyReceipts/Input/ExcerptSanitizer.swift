/// Makes a short, single-line, printable excerpt of a rejected input for the quarantine table
/// and error messages — with receipt data redacted, because a base64 receipt must never be
/// copied into a report or a log.
public enum ExcerptSanitizer {
  /// The keys whose string values are redacted.
  static let sensitiveKeys: [[UInt8]] = ["latest_receipt", "receipt_data", "receipt-data"].map {
    Array("\"\($0)\"".utf8)
  }

  /// Builds an excerpt.
  ///
  /// - Parameters:
  ///   - bytes: the rejected input (only its beginning is looked at beyond the redaction).
  ///   - limit: the maximum excerpt length in characters.
  /// - Returns: printable text, at most `limit` characters plus an ellipsis.
  public static func excerpt(of bytes: some Collection<UInt8>, limit: Int = 200) -> String {
    let redacted = redact(Array(bytes.prefix(64 * 1024)))
    var text = String(decoding: redacted.prefix(limit * 4), as: UTF8.self)
    text = String(
      text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
    if text.count > limit || bytes.count > redacted.count {
      text = String(text.prefix(limit)) + "…"
    }
    return text
  }

  /// Replaces the string value of every sensitive key with `"<redacted>"`, including a value
  /// that runs to the end of the input because the record was truncated.
  static func redact(_ bytes: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(min(bytes.count, 4096))
    var index = 0
    while index < bytes.count {
      guard let key = sensitiveKeys.first(where: { bytes.starts(with: $0, at: index) }) else {
        output.append(bytes[index])
        index += 1
        continue
      }
      output.append(contentsOf: key)
      index += key.count
      // Copy `<spaces>:<spaces>` as it is.
      while index < bytes.count, [0x20, 0x09, UInt8(ascii: ":")].contains(bytes[index]) {
        output.append(bytes[index])
        index += 1
      }
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { continue }
      // Drop the string value, escapes included, up to its closing quote or the end.
      index += 1
      while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
        index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
      }
      index += 1
      output.append(contentsOf: Array("\"<redacted>\"".utf8))
    }
    return output
  }
}

extension Array where Element == UInt8 {
  fileprivate func starts(with prefix: [UInt8], at index: Int) -> Bool {
    guard index + prefix.count <= count else { return false }
    for offset in 0..<prefix.count where self[index + offset] != prefix[offset] { return false }
    return true
  }
}
