import Foundation

/// The plain versions of the team-table CSV splitting that `LineSplitter` and `CSVFields`
/// replaced with byte-level code: what the unit tests (`CSVLineSplittingTests`) and the
/// `team-table` fuzz target hold the fast code to. Written for clarity, not speed; a check
/// against them is a check of this project's code against its own.
public enum CSVReference {
  /// The lines of `bytes`: LF, CRLF and a lone CR each end a line; a last line without a break
  /// counts unless empty; each line is decoded as UTF-8 with U+FFFD for what is not.
  ///
  /// - Parameter bytes: the input.
  /// - Returns: the lines, without their breaks.
  public static func lines(_ bytes: [UInt8]) -> [String] {
    var lines: [String] = []
    var pending: [UInt8] = []
    var afterCarriageReturn = false
    for byte in bytes {
      if afterCarriageReturn {
        afterCarriageReturn = false
        if byte == 0x0A { continue }
      }
      switch byte {
      case 0x0A, 0x0D:
        lines.append(String(decoding: pending, as: UTF8.self))
        pending.removeAll()
        afterCarriageReturn = byte == 0x0D
      default:
        pending.append(byte)
      }
    }
    if !pending.isEmpty { lines.append(String(decoding: pending, as: UTF8.self)) }
    return lines
  }

  /// The fields of `line` split over Unicode scalars as Python's `csv` module splits them (the
  /// `excel` dialect): a quote opens quoting only as a field's first character (after a space or
  /// in mid-field it is data), inside quotes a doubled quote is one quote and a single one
  /// closes them, whatever follows the closing quote up to a comma is data, and a comma outside
  /// quotes ends a field; each field is then trimmed by Foundation (`.whitespaces`).
  ///
  /// - Parameter line: one line, without its break.
  /// - Returns: the fields.
  public static func fields(_ line: some StringProtocol) -> [String] {
    split(line).fields
  }

  /// Whether the line ends inside a quoted field, by the same reading as ``fields(_:)``.
  ///
  /// - Parameter line: one line, without its break.
  /// - Returns: `true` when a quote is left open.
  public static func endsInsideQuotes(_ line: some StringProtocol) -> Bool {
    split(line).endsQuoted
  }

  private static func split(_ line: some StringProtocol) -> (fields: [String], endsQuoted: Bool) {
    var fields: [String] = []
    var current = ""
    var atFieldStart = true
    var quoted = false
    var scalars = line.unicodeScalars.makeIterator()
    var pending = scalars.next()
    while let scalar = pending {
      pending = scalars.next()
      if quoted {
        if scalar != "\"" {
          current.unicodeScalars.append(scalar)
        } else if pending == "\"" {
          current.append("\"")
          pending = scalars.next()
        } else {
          quoted = false
        }
      } else if scalar == "\"" && atFieldStart {
        quoted = true
        atFieldStart = false
      } else if scalar == "," {
        fields.append(current.trimmingCharacters(in: .whitespaces))
        current = ""
        atFieldStart = true
      } else {
        current.unicodeScalars.append(scalar)
        atFieldStart = false
      }
    }
    fields.append(current.trimmingCharacters(in: .whitespaces))
    return (fields, quoted)
  }
}
