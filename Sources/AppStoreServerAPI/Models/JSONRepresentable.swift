import JSON

/// A JSON document this library reads with ``JSON/JSONReader`` and writes with
/// ``JSON/JSONWriter``: the decoded payloads of signed data and the response bodies.
///
/// Reading ignores members it does not know, so documents from newer API versions decode.
public protocol JSONRepresentable: Sendable {
  /// Reads one value (normally an object) from `reader`.
  ///
  /// - Parameter reader: A reader positioned before the value.
  /// - Returns: The decoded value.
  /// - Throws: `JSONError` when the value is malformed or a member has the wrong type.
  static func read(from reader: inout JSONReader) throws(JSONError) -> Self

  /// Writes the value through `writer`, leaving out absent members.
  ///
  /// - Parameter writer: The destination.
  func write(to writer: inout JSONWriter)
}

extension JSONRepresentable {
  /// Decodes a complete JSON document.
  ///
  /// - Parameter json: UTF-8 JSON bytes holding exactly one value.
  /// - Returns: The decoded value.
  /// - Throws: `JSONError` when the bytes are not one such value.
  public static func decode(json: some Sequence<UInt8>) throws(JSONError) -> Self {
    let outcome: Result<Self, JSONError> = json.withContiguousBytes { bytes in
      do throws(JSONError) {
        return .success(try decode(bytes: bytes))
      } catch {
        return .failure(error)
      }
    }
    return try outcome.get()
  }

  /// Decodes a complete JSON document from a buffer, without copying it.
  ///
  /// - Parameter bytes: UTF-8 JSON holding exactly one value.
  /// - Returns: The decoded value.
  /// - Throws: `JSONError` when the bytes are not one such value.
  public static func decode(bytes: UnsafeRawBufferPointer) throws(JSONError) -> Self {
    var reader = JSONReader(bytes)
    let value = try read(from: &reader)
    try reader.finish()
    return value
  }

  /// The value as JSON.
  ///
  /// - Parameter style: Compact (the default, as signed payloads are) or pretty.
  /// - Returns: UTF-8 JSON bytes.
  public func jsonBytes(style: JSONWriter.Style = .compact) -> [UInt8] {
    var writer = JSONWriter(style: style)
    write(to: &writer)
    return writer.bytes
  }
}

// MARK: - Contiguous access

extension Sequence<UInt8> {
  /// Calls `body` with the bytes as one buffer, copying only when there is no contiguous storage.
  func withContiguousBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    if let result = withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) {
      return result
    }
    return Array(self).withUnsafeBytes(body)
  }
}
