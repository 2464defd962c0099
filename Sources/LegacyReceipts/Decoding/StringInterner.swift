import JSON

/// Reuses the `String` of a value that repeats from one transaction to the next — product ids
/// and subscription groups — instead of allocating a copy per transaction: a response with 36
/// renewals names the same product 72 times.
struct StringInterner {
  private var entries: [(bytes: [UInt8], text: String)] = []

  /// Reads a lenient string value, returning a previously made `String` when the bytes repeat.
  mutating func readLenientString(_ reader: inout JSONReader) throws(JSONError) -> String? {
    guard try reader.peekKind() == .string else { return try reader.readLenientString() }
    return try reader.withStringBytes { bytes in
      for entry in entries
      where entry.bytes.count == bytes.count && entry.bytes.elementsEqual(bytes) {
        return entry.text
      }
      let text = String(decoding: bytes, as: UTF8.self)
      // A handful of distinct values per response; past that, interning would only cost time.
      if entries.count < 8 { entries.append((Array(bytes), text)) }
      return text
    }
  }
}
