/// Decodes the base64 text receipts are stored as.
///
/// Lenient about form, strict about content: line breaks (MIME wraps at 76 columns) are
/// skipped, padding may be absent, and the URL-safe alphabet (`-`, `_`) is accepted next to the
/// standard one, since none of these change the bytes meant; any other character, including a
/// space, is refused with its offset.
enum Base64Text {
  /// Why text is not base64.
  enum Failure: Error {
    case invalidCharacter(offset: Int, byte: UInt8)
    case invalidLength(characters: Int)
  }

  /// The 6-bit value of each byte, or `invalid`, `skipped` (line breaks) or `padding`.
  private static let values: [UInt8] = {
    var table = [UInt8](repeating: invalid, count: 256)
    for (index, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8
      .enumerated()
    {
      table[Int(byte)] = UInt8(index)
    }
    table[Int(UInt8(ascii: "-"))] = 62
    table[Int(UInt8(ascii: "_"))] = 63
    table[Int(UInt8(ascii: "\n"))] = skipped
    table[Int(UInt8(ascii: "\r"))] = skipped
    table[Int(UInt8(ascii: "="))] = padding
    return table
  }()
  private static let invalid: UInt8 = 0xFF
  private static let skipped: UInt8 = 0xFE
  private static let padding: UInt8 = 0xFD

  /// The bytes `text` encodes.
  ///
  /// - Parameter text: The UTF-8 bytes of the base64 text.
  /// - Returns: The decoded bytes.
  /// - Throws: ``Failure`` naming the first character outside the alphabet (padding anywhere but
  ///   at the end counts as one), or a character count no encoding has.
  static func decode(_ text: some Collection<UInt8>) throws(Failure) -> [UInt8] {
    let decoded = text.withContiguousStorageIfAvailable { buffer in
      Result { () throws(Failure) in try decode(buffer) }
    }
    if let decoded { return try decoded.get() }
    return try Array(text).withUnsafeBufferPointer { buffer throws(Failure) in
      try decode(buffer)
    }
  }

  private static func decode(_ text: UnsafeBufferPointer<UInt8>) throws(Failure) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(text.count / 4 * 3 + 2)
    try values.withUnsafeBufferPointer { values throws(Failure) in
      var accumulator: UInt32 = 0
      var pending = 0
      var characters = 0
      var paddingStart: Int?
      var paddingCount = 0
      for offset in text.indices {
        let value = values[Int(text[offset])]
        if value < 64 {
          if let paddingStart {
            throw .invalidCharacter(offset: paddingStart, byte: UInt8(ascii: "="))
          }
          accumulator = accumulator << 6 | UInt32(value)
          pending += 1
          characters += 1
          if pending == 4 {
            output.append(UInt8(truncatingIfNeeded: accumulator >> 16))
            output.append(UInt8(truncatingIfNeeded: accumulator >> 8))
            output.append(UInt8(truncatingIfNeeded: accumulator))
            accumulator = 0
            pending = 0
          }
        } else if value == skipped {
          continue
        } else if value == padding {
          // Padding only completes the last group of two or three characters.
          guard pending >= 2, pending + paddingCount < 4 else {
            throw .invalidCharacter(offset: offset, byte: text[offset])
          }
          if paddingStart == nil { paddingStart = offset }
          paddingCount += 1
        } else {
          throw .invalidCharacter(offset: offset, byte: text[offset])
        }
      }
      switch pending {
      case 0:
        break
      case 2:
        output.append(UInt8(truncatingIfNeeded: accumulator >> 4))
      case 3:
        output.append(UInt8(truncatingIfNeeded: accumulator >> 10))
        output.append(UInt8(truncatingIfNeeded: accumulator >> 2))
      default:
        throw .invalidLength(characters: characters)
      }
    }
    return output
  }
}
