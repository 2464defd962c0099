/// Byte constants and character classes of the HTTP grammar (RFC 9110 §5.6, RFC 9112).
enum ASCII {
  static let horizontalTab: UInt8 = 0x09
  static let lineFeed: UInt8 = 0x0A
  static let carriageReturn: UInt8 = 0x0D
  static let space: UInt8 = 0x20
  static let percent: UInt8 = 0x25
  static let ampersand: UInt8 = 0x26
  static let slash: UInt8 = 0x2F
  static let colon: UInt8 = 0x3A
  static let semicolon: UInt8 = 0x3B
  static let equals: UInt8 = 0x3D
  static let questionMark: UInt8 = 0x3F
  static let numberSign: UInt8 = 0x23
  static let delete: UInt8 = 0x7F

  /// `tchar`: the characters of a token such as a method or a field name.
  static func isTokenCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"),
      UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
      UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
      UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
      true
    default:
      false
    }
  }

  /// Whether a byte may appear inside a field value: visible characters, space, tab and
  /// `obs-text` (0x80–0xFF); never another control character.
  static func isFieldValueCharacter(_ byte: UInt8) -> Bool {
    byte == horizontalTab || (byte >= space && byte != delete)
  }

  /// Space or horizontal tab, the optional whitespace around field values.
  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == space || byte == horizontalTab
  }

  /// Folds an ASCII capital letter to lower case and leaves every other byte alone.
  static func lowercased(_ byte: UInt8) -> UInt8 {
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
  }

  /// The value of a hexadecimal digit, or `nil` for any other byte.
  static func hexDigitValue(_ byte: UInt8) -> Int? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  /// The value of a decimal digit, or `nil` for any other byte.
  static func decimalDigitValue(_ byte: UInt8) -> Int? {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
  }
}
