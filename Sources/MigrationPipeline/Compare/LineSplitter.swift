import Foundation

/// Splits bytes that arrive in blocks into lines, as a spreadsheet writes them: LF, CRLF and a
/// lone CR each end a line (CRLF once), whichever block boundary falls between them.
struct LineSplitter {
  private var pending: [UInt8] = []
  private var afterCarriageReturn = false

  /// The lines a block completes, decoded as UTF-8 (invalid bytes become U+FFFD).
  mutating func feed(_ block: Data) -> [String] {
    block.withUnsafeBytes { feed($0.assumingMemoryBound(to: UInt8.self)) }
  }

  private mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
    var lines: [String] = []
    // Where the line being read began in this block; bytes before it are in `pending`.
    var lineStart = 0
    var index = 0
    if afterCarriageReturn, let first = bytes.first {
      afterCarriageReturn = false
      if first == 0x0A {
        index = 1
        lineStart = 1
      }
    }
    while index < bytes.count {
      let byte = bytes[index]
      guard byte == 0x0A || byte == 0x0D else {
        index += 1
        continue
      }
      let piece = UnsafeBufferPointer(rebasing: bytes[lineStart..<index])
      if pending.isEmpty {
        lines.append(String(decoding: piece, as: UTF8.self))
      } else {
        pending.append(contentsOf: piece)
        lines.append(String(decoding: pending, as: UTF8.self))
        pending.removeAll(keepingCapacity: true)
      }
      index += 1
      if byte == 0x0D {
        // CRLF ends one line; a CR at the block's end waits to see the next block's first byte.
        if index < bytes.count {
          if bytes[index] == 0x0A { index += 1 }
        } else {
          afterCarriageReturn = true
        }
      }
      lineStart = index
    }
    pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[lineStart..<bytes.count]))
    return lines
  }

  /// The last line, when the input did not end with a line break. The splitter is then empty,
  /// as if new: a CR that ended the input no longer swallows the next input's first LF.
  mutating func finish() -> String? {
    defer {
      pending.removeAll()
      afterCarriageReturn = false
    }
    return pending.isEmpty ? nil : String(decoding: pending, as: UTF8.self)
  }
}
