import Foundation

/// The fields of one line of a team's CSV file (RFC 4180 quoting read as Python's `csv` module
/// reads it, surrounding spaces trimmed): shared by the readers of the entitlement table and
/// the token mapping.
///
/// Lines are split over their UTF-8 bytes, not their `Character`s: the delimiters (`,` and `"`)
/// are ASCII, and no byte of a multi-byte UTF-8 sequence is ASCII, so the bytes give the same
/// fields at a fraction of the cost (walking `Character`s and trimming every field through
/// Foundation cost about 10 µs a row, which `compare` paid for every row of a million-row table).
enum CSVFields {
  /// A file's first line without the UTF-8 byte-order mark that spreadsheets (Excel's "CSV
  /// UTF-8") write before it: the mark is invisible in messages, so a header that printed
  /// correctly would still lack its first column.
  ///
  /// - Parameter header: the first line, decoded.
  /// - Returns: the line without a leading U+FEFF; any other line unchanged.
  static func withoutByteOrderMark(_ header: Substring) -> Substring {
    header.unicodeScalars.first == "\u{FEFF}"
      ? Substring(header.unicodeScalars.dropFirst()) : header
  }

  /// Whether a line leaves a quoted field open: ``split(_:)`` would read the rest of the line
  /// into it. The team's files are read a line at a time, so such a line is a field that held a
  /// line break or a stray quote: rejected with ``unclosedQuoteReason`` rather than read wrong.
  ///
  /// Read as ``split(_:)`` reads: a quote opens quoting only as a field's first character, so
  /// `a"b` and ` "b` leave nothing open.
  ///
  /// - Parameter line: the line, without its line break.
  /// - Returns: `true` when the line ends inside quotes.
  static func hasUnclosedQuote(_ line: Substring) -> Bool {
    var state = QuoteState.fieldStart
    for byte in line.utf8 { state = state.after(byte) }
    return state == .quoted
  }

  /// Where a reading of Python's `csv` module (the `excel` dialect) stands after a byte.
  private enum QuoteState {
    /// At a field's first character: only here does a quote open quoting.
    case fieldStart
    /// In a field that began without a quote: quotes are data.
    case plain
    /// Inside quotes.
    case quoted
    /// Just after a quote inside quotes: a second quote is one quote inside, a comma ends the
    /// field, anything else is data after the closed quotes.
    case afterQuote

    func after(_ byte: UInt8) -> QuoteState {
      let quote = UInt8(ascii: "\"")
      let comma = UInt8(ascii: ",")
      switch self {
      case .fieldStart: return byte == quote ? .quoted : byte == comma ? .fieldStart : .plain
      case .plain: return byte == comma ? .fieldStart : .plain
      case .quoted: return byte == quote ? .afterQuote : .quoted
      case .afterQuote: return byte == quote ? .quoted : byte == comma ? .fieldStart : .plain
      }
    }
  }

  /// Why a line with an unclosed quote is rejected.
  static let unclosedQuoteReason =
    "a quoted field is not closed on this line (fields in this file cannot hold line breaks; "
    + "a quote inside a quoted field is written twice, \"\")"

  /// Splits one line into its fields.
  ///
  /// - Parameter line: the line, without its line break.
  /// - Returns: the fields, unquoted and trimmed of white space (as `.whitespaces` defines it).
  static func split(_ line: Substring) -> [String] {
    var line = line
    return line.withUTF8(split(utf8:))
  }

  private static func split(utf8 bytes: UnsafeBufferPointer<UInt8>) -> [String] {
    let quote = UInt8(ascii: "\"")
    let comma = UInt8(ascii: ",")
    var fields: [String] = []
    var start = 0
    while true {
      var end = start
      while end < bytes.count, bytes[end] != comma, bytes[end] != quote { end += 1 }
      if end < bytes.count, bytes[end] == quote {
        let (value, next) = quotedField(bytes, from: start)
        fields.append(value)
        guard let next else { return fields }
        start = next
        continue
      }
      fields.append(plainField(UnsafeBufferPointer(rebasing: bytes[start..<end])))
      guard end < bytes.count else { return fields }
      start = end + 1
    }
  }

  /// A field without quotes, straight from its bytes: almost every field of a real table.
  ///
  /// Spaces and tabs come off the bytes; a field whose ends are then ASCII is decoded as it
  /// stands, and one that starts or ends with another byte goes through ``trimmed(_:newlines:)``,
  /// which knows the rest of Unicode's white space.
  private static func plainField(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    var first = 0
    var end = bytes.count
    while first < end, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
    while first < end, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
    guard first < end else { return "" }
    guard bytes[first] < 0x80, bytes[end - 1] < 0x80 else { return field(Array(bytes)) }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<end]), as: UTF8.self)
  }

  /// A field with a quote in it, read from `start` to the first comma outside quotes, as
  /// Python's `csv` module reads it (RFC 4180, the `excel` dialect): a quote opens quoting only
  /// as the field's first character — after a space it is data, as in mid-field; inside
  /// quotes, a doubled quote is one quote and a single one closes them; what follows the
  /// closing quote up to the comma is data, quotes included.
  ///
  /// - Returns: the field, and where the next one starts (`nil` when this one ends the line).
  private static func quotedField(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int)
    -> (field: String, next: Int?)
  {
    let quote = UInt8(ascii: "\"")
    var current: [UInt8] = []
    var state = QuoteState.fieldStart
    var index = start
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      let next = state.after(byte)
      switch (state, next) {
      case (_, .fieldStart):
        return (field(current), index)
      case (.fieldStart, .quoted), (.quoted, .afterQuote):
        break
      case (.afterQuote, .quoted):
        // A doubled quote inside a quoted field is one quote (RFC 4180).
        current.append(quote)
      default:
        current.append(byte)
      }
      state = next
    }
    return (field(current), nil)
  }

  /// One field's text, trimmed.
  private static func field(_ bytes: [UInt8]) -> String {
    String(trimmed(Substring(String(decoding: bytes, as: UTF8.self)), newlines: false))
  }

  /// `text` without the white space at either end, exactly as Foundation's
  /// `trimmingCharacters(in:)` with `.whitespaces` (or `.whitespacesAndNewlines`) trims it, but
  /// cutting ASCII white space straight off the bytes and asking Foundation only when an end is
  /// not ASCII (a no-break space, say).
  ///
  /// - Parameters:
  ///   - text: the text.
  ///   - newlines: whether line breaks count as white space too.
  /// - Returns: the trimmed text.
  static func trimmed(_ text: Substring, newlines: Bool) -> Substring {
    let utf8 = text.utf8
    func isSpace(_ byte: UInt8) -> Bool {
      switch byte {
      case 0x20, 0x09: true
      case 0x0A, 0x0B, 0x0C, 0x0D: newlines
      default: false
      }
    }
    var start = utf8.startIndex
    var end = utf8.endIndex
    while start < end, isSpace(utf8[start]) { start = utf8.index(after: start) }
    while start < end, isSpace(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
    guard start < end else { return text[start..<start] }
    guard utf8[start] >= 0x80 || utf8[utf8.index(before: end)] >= 0x80 else {
      return text[start..<end]
    }
    let set: CharacterSet = newlines ? .whitespacesAndNewlines : .whitespaces
    return Substring(String(text[start..<end]).trimmingCharacters(in: set))
  }
}
