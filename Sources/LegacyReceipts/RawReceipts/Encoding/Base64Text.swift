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
  /// The value of each byte at each position of a group of four, shifted into place, or
  /// `groupInvalid` for a byte that is not in the alphabet: a group then decodes with four
  /// lookups and three ORs, and one test rejects it.
  private static let groupValues: [UInt32] = {
    var table = [UInt32](repeating: groupInvalid, count: 4 * 256)
    for byte in 0..<256 where values[byte] < 64 {
      let value = UInt32(values[byte])
      table[byte] = value << 18
      table[256 + byte] = value << 12
      table[512 + byte] = value << 6
      table[768 + byte] = value
    }
    return table
  }()
  private static let groupInvalid: UInt32 = 1 << 31
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
    var failure: Failure?
    let output = [UInt8](unsafeUninitializedCapacity: text.count / 4 * 3 + 3) {
      output, written in
      values.withUnsafeBufferPointer { values in
        groupValues.withUnsafeBufferPointer { groupValues in
          do throws(Failure) {
            written = try decode(
              text, into: output, values: values, groupValues: groupValues)
          } catch {
            failure = error
            written = 0
          }
        }
      }
    }
    if let failure { throw failure }
    return output
  }

  /// Decodes into `output`, which has room for three bytes per four characters plus three, and
  /// returns how many bytes were written.
  private static func decode(
    _ text: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>,
    values: UnsafeBufferPointer<UInt8>, groupValues: UnsafeBufferPointer<UInt32>
  ) throws(Failure) -> Int {
    var written = 0
    var offset = 0
    let count = text.count
    // Whole groups of four alphabet characters, the bulk of any receipt, take the fast path.
    while offset + 4 <= count {
      let group =
        groupValues[Int(text[offset])] | groupValues[256 + Int(text[offset + 1])]
        | groupValues[512 + Int(text[offset + 2])] | groupValues[768 + Int(text[offset + 3])]
      guard group & groupInvalid == 0 else { break }
      output[written] = UInt8(truncatingIfNeeded: group >> 16)
      output[written + 1] = UInt8(truncatingIfNeeded: group >> 8)
      output[written + 2] = UInt8(truncatingIfNeeded: group)
      written += 3
      offset += 4
    }
    // The rest one character at a time: line breaks, padding, the last group, and errors.
    var accumulator: UInt32 = 0
    var pending = 0
    var characters = offset
    var paddingStart: Int?
    var paddingCount = 0
    while offset < count {
      let value = values[Int(text[offset])]
      if value < 64 {
        if let paddingStart {
          throw .invalidCharacter(offset: paddingStart, byte: UInt8(ascii: "="))
        }
        accumulator = accumulator << 6 | UInt32(value)
        pending += 1
        characters += 1
        if pending == 4 {
          output[written] = UInt8(truncatingIfNeeded: accumulator >> 16)
          output[written + 1] = UInt8(truncatingIfNeeded: accumulator >> 8)
          output[written + 2] = UInt8(truncatingIfNeeded: accumulator)
          written += 3
          accumulator = 0
          pending = 0
        }
      } else if value == padding {
        // Padding only completes the last group of two or three characters.
        guard pending >= 2, pending + paddingCount < 4 else {
          throw .invalidCharacter(offset: offset, byte: text[offset])
        }
        if paddingStart == nil { paddingStart = offset }
        paddingCount += 1
      } else if value != skipped {
        throw .invalidCharacter(offset: offset, byte: text[offset])
      }
      offset += 1
    }
    switch pending {
    case 0:
      break
    case 2:
      output[written] = UInt8(truncatingIfNeeded: accumulator >> 4)
      written += 1
    case 3:
      output[written] = UInt8(truncatingIfNeeded: accumulator >> 10)
      output[written + 1] = UInt8(truncatingIfNeeded: accumulator >> 2)
      written += 2
    default:
      throw .invalidLength(characters: characters)
    }
    return written
  }
}
