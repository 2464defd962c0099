import Foundation

/// Splits bytes that arrive in blocks into lines, as a spreadsheet writes them: LF, CRLF and a
/// lone CR each end a line (CRLF once), whichever block boundary falls between them.
struct LineSplitter {
  private var pending: [UInt8] = []
  private var afterCarriageReturn = false

  /// The lines a block completes, decoded as UTF-8 (invalid bytes become U+FFFD).
  mutating func feed(_ block: Data) -> [String] {
    var lines: [String] = []
    for byte in block {
      if afterCarriageReturn {
        afterCarriageReturn = false
        if byte == 0x0A { continue }
      }
      switch byte {
      case 0x0A:
        lines.append(String(decoding: pending, as: UTF8.self))
        pending.removeAll(keepingCapacity: true)
      case 0x0D:
        lines.append(String(decoding: pending, as: UTF8.self))
        pending.removeAll(keepingCapacity: true)
        afterCarriageReturn = true
      default:
        pending.append(byte)
      }
    }
    return lines
  }

  /// The last line, when the input did not end with a line break.
  mutating func finish() -> String? {
    defer { pending.removeAll() }
    return pending.isEmpty ? nil : String(decoding: pending, as: UTF8.self)
  }
}
