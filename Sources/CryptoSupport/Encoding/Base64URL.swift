/// The URL-safe base64 alphabet of RFC 4648 §5 without padding, as JWS and JWT use it.
///
/// Encoding never pads. Decoding is strict where strictness prevents two texts from meaning the
/// same bytes (which would make signed tokens malleable): it rejects characters outside the
/// alphabet (including `+`, `/` and whitespace), impossible lengths and non-zero unused bits. It
/// tolerates absent padding and accepts correct `=` padding.
public enum Base64URL {
  // MARK: - Encoding

  /// `bytes` as unpadded base64url text.
  ///
  /// - Parameter bytes: The bytes to encode.
  /// - Returns: The text, `ceil(4 * count / 3)` characters long.
  public static func encode(_ bytes: some Sequence<UInt8>) -> String {
    bytes.withContiguousBytes { input in
      let outputCount = (input.count / 3) * 4 + [0, 2, 3][input.count % 3]
      return String(unsafeUninitializedCapacity: outputCount) { output in
        encode(input, into: output)
        return outputCount
      }
    }
  }

  private static func encode(
    _ input: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>
  ) {
    alphabet.withUnsafeBufferPointer { alphabet in
      var read = 0
      var written = 0
      while read + 3 <= input.count {
        let group =
          UInt32(input[read]) << 16 | UInt32(input[read + 1]) << 8 | UInt32(input[read + 2])
        output[written] = alphabet[Int(group >> 18)]
        output[written + 1] = alphabet[Int((group >> 12) & 0x3F)]
        output[written + 2] = alphabet[Int((group >> 6) & 0x3F)]
        output[written + 3] = alphabet[Int(group & 0x3F)]
        read += 3
        written += 4
      }
      switch input.count - read {
      case 1:
        let group = UInt32(input[read]) << 16
        output[written] = alphabet[Int(group >> 18)]
        output[written + 1] = alphabet[Int((group >> 12) & 0x3F)]
      case 2:
        let group = UInt32(input[read]) << 16 | UInt32(input[read + 1]) << 8
        output[written] = alphabet[Int(group >> 18)]
        output[written + 1] = alphabet[Int((group >> 12) & 0x3F)]
        output[written + 2] = alphabet[Int((group >> 6) & 0x3F)]
      default:
        break
      }
    }
  }

  // MARK: - Decoding

  /// The bytes that base64url `text` encodes.
  ///
  /// - Parameter text: Base64url text, with or without `=` padding.
  /// - Returns: The decoded bytes.
  /// - Throws: ``CryptoError`` of kind `.malformedInput` naming the offending character and its
  ///   offset, an impossible length, misplaced padding or non-zero unused bits.
  public static func decode(_ text: some StringProtocol) throws(CryptoError) -> [UInt8] {
    try decode(utf8: text.utf8)
  }

  /// The bytes that base64url text, given as its UTF-8 bytes, encodes.
  ///
  /// Decoding straight from bytes avoids making a `String` of each part of a JWS.
  ///
  /// - Parameter utf8: The UTF-8 bytes of base64url text, with or without `=` padding.
  /// - Returns: The decoded bytes.
  /// - Throws: ``CryptoError`` of kind `.malformedInput`, as ``decode(_:)``.
  public static func decode(utf8: some Sequence<UInt8>) throws(CryptoError) -> [UInt8] {
    let outcome = utf8.withContiguousBytes { input in decode(input) }
    switch outcome {
    case .success(let bytes): return bytes
    case .failure(let error): throw error
    }
  }

  private static func decode(_ input: UnsafeRawBufferPointer) -> Result<[UInt8], CryptoError> {
    var count = input.count
    var padding = 0
    while count > 0, input[count - 1] == UInt8(ascii: "=") {
      count -= 1
      padding += 1
    }
    if padding > 0 && (padding > 2 || input.count % 4 != 0) {
      return .failure(
        CryptoError(
          .malformedInput,
          "base64url text of \(input.count) characters has \(padding) padding characters; "
            + "padding, if present, must complete the last group of four"))
    }
    let outputCount = (count / 4) * 3 + [0, 0, 1, 2][count % 4]
    var failure: CryptoError?
    let bytes = [UInt8](unsafeUninitializedCapacity: outputCount) { output, initialized in
      decodingTable.withUnsafeBufferPointer { table in
        var read = 0
        var written = 0
        // Whole groups of four characters first: four lookups, one validity test, three bytes.
        // Every valid table entry is below 64, so any invalid one sets a bit of 0xC0.
        while read + 4 <= count {
          let a = table[Int(input[read])]
          let b = table[Int(input[read + 1])]
          let c = table[Int(input[read + 2])]
          let d = table[Int(input[read + 3])]
          if (a | b | c | d) & 0xC0 != 0 { break }
          let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
          output[written] = UInt8(truncatingIfNeeded: group >> 16)
          output[written + 1] = UInt8(truncatingIfNeeded: group >> 8)
          output[written + 2] = UInt8(truncatingIfNeeded: group)
          read += 4
          written += 3
        }
        // The tail (and any group with a bad character, to find and name it) goes one at a time.
        var bits: UInt32 = 0
        var bitCount = 0
        while read < count {
          let character = input[read]
          let value = table[Int(character)]
          if value == invalid {
            failure = invalidCharacter(character, at: read)
            break
          }
          bits = bits << 6 | UInt32(value)
          bitCount += 6
          if bitCount >= 8 {
            bitCount -= 8
            output[written] = UInt8(truncatingIfNeeded: bits >> UInt32(bitCount))
            written += 1
          }
          read += 1
        }
        // A lone last character carries 6 bits: less than a byte, so no text of that length
        // is an encoding (checked after the characters, whose errors are more telling).
        if failure == nil, count % 4 == 1 {
          failure = CryptoError(
            .malformedInput,
            "base64url text of \(count) characters (without padding) cannot encode whole bytes")
        }
        if failure == nil, bitCount > 0, bits & ((1 << UInt32(bitCount)) - 1) != 0 {
          failure = CryptoError(
            .malformedInput,
            "base64url text ends in a character whose unused low bits are not zero; "
              + "the text is not the canonical encoding of any bytes")
        }
        initialized = failure == nil ? written : 0
      }
    }
    if let failure { return .failure(failure) }
    return .success(bytes)
  }

  private static func invalidCharacter(_ character: UInt8, at offset: Int) -> CryptoError {
    let shown: String
    if character >= 0x21 && character < 0x7F {
      shown = "'\(Character(Unicode.Scalar(character)))'"
    } else {
      shown = "byte 0x\(Hex.encode([character]))"
    }
    return CryptoError(
      .malformedInput,
      "base64url text has \(shown) at offset \(offset); only A-Z, a-z, 0-9, '-' and '_' "
        + "are allowed (standard base64 uses '+' and '/' instead)")
  }

  // MARK: - Tables

  private static let alphabet: [UInt8] = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  private static let invalid: UInt8 = 0xFF

  private static let decodingTable: [UInt8] = {
    var table = [UInt8](repeating: invalid, count: 256)
    for (value, character) in alphabet.enumerated() {
      table[Int(character)] = UInt8(value)
    }
    return table
  }()
}
