extension Sequence<UInt8> {
  /// Calls `body` with the bytes as one contiguous buffer, copying only when the sequence has no
  /// contiguous storage of its own (`[UInt8]`, `ArraySlice`, `Data` and UTF-8 views do).
  @inlinable
  func withContiguousBytes<Result>(
    _ body: (UnsafeRawBufferPointer) throws -> Result
  ) rethrows -> Result {
    if let result = try withContiguousStorageIfAvailable({
      try body(UnsafeRawBufferPointer($0))
    }) {
      return result
    }
    return try Array(self).withUnsafeBytes(body)
  }
}
