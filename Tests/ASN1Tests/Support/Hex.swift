/// The bytes of hex text written in a test, ignoring spaces: `hex("30 03 02 01 05")`.
func hex(_ text: String) -> [UInt8] {
  let digits = Array(text.utf8.filter { $0 != UInt8(ascii: " ") })
  precondition(digits.count % 2 == 0, "odd number of hex digits in \(text)")
  return stride(from: 0, to: digits.count, by: 2).map { index in
    UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) ?? 0
  }
}
