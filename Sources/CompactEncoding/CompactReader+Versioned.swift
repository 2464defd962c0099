extension CompactReader {
  /// Reads a whole stored value: its version byte, then the value `body` reads, then nothing.
  ///
  /// - Parameters:
  ///   - bytes: the stored bytes.
  ///   - formatVersion: the only version this reader accepts.
  ///   - noun: what the value is, for the error about trailing bytes ("the transaction").
  ///   - body: reads the value after the version byte.
  /// - Returns: the value.
  /// - Throws: ``CompactDecodingError`` when the bytes are damaged, trail the value, or are of
  ///   another version.
  public static func readWhole<Value>(
    _ bytes: [UInt8], formatVersion: Int, noun: String,
    _ body: (inout CompactReader) throws(CompactDecodingError) -> Value
  ) throws(CompactDecodingError) -> Value {
    var reader = CompactReader(bytes)
    let version = try reader.byte()
    guard version == formatVersion else {
      throw reader.damaged("format version \(version), not \(formatVersion)")
    }
    let value = try body(&reader)
    guard reader.isAtEnd else {
      throw reader.damaged("\(reader.remaining) bytes trail \(noun)")
    }
    return value
  }
}
