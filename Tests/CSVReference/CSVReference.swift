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

  /// The fields of `line` split over Unicode scalars: a quote opens or closes quoting, a doubled
  /// quote inside quotes is one quote, a comma outside quotes ends a field, and each field is
  /// trimmed by Foundation (`.whitespaces`).
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
      } else if scalar == "\"" {
        quoted = true
      } else if scalar == "," {
        fields.append(current.trimmingCharacters(in: .whitespaces))
        current = ""
      } else {
        current.unicodeScalars.append(scalar)
      }
    }
    fields.append(current.trimmingCharacters(in: .whitespaces))
    return (fields, quoted)
  }
}
