/// Percent-encoding of path segments and query components: everything but RFC 3986's
/// unreserved characters is encoded, so an id can never change the shape of a URL.
enum PercentEncoding {
  static func encode(_ text: String) -> String {
    var encoded = ""
    encoded.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        encoded.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let digits = Array("0123456789ABCDEF".unicodeScalars)
        encoded.unicodeScalars.append("%")
        encoded.unicodeScalars.append(digits[Int(byte >> 4)])
        encoded.unicodeScalars.append(digits[Int(byte & 0x0F)])
      }
    }
    return encoded
  }
}
