/// Formats the INTEGER ids of receipts as decimal text, the form verifyReceipt gives them in.
///
/// A plain digit loop into a stack buffer: a receipt has one web order line item id per
/// subscription period, and the standard library's general formatting costs several times more.
enum DecimalText {
  /// `value` in decimal, with a leading `-` when negative.
  static func string(_ value: Int64) -> String {
    // 19 digits and a sign cover every Int64.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
      var magnitude = value.magnitude
      var start = buffer.count
      repeat {
        start -= 1
        buffer[start] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30
        magnitude /= 10
      } while magnitude > 0
      if value < 0 {
        start -= 1
        buffer[start] = UInt8(ascii: "-")
      }
      return String(decoding: UnsafeMutableBufferPointer(rebasing: buffer[start...]), as: UTF8.self)
    }
  }
}
