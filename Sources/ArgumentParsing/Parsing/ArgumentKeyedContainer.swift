/// The keyed container an argument command decodes its properties from.
///
/// Every key is "present": the wrapper behind it asks the decoder for its own value. Requests
/// for plain values mean a stored property without an argument wrapper, which is a declaration
/// mistake worth a clear message.
struct ArgumentKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  var decoder: ArgumentDecoder

  var codingPath: [any CodingKey] { decoder.codingPath }
  var allKeys: [Key] { [] }

  func contains(_ key: Key) -> Bool { true }

  func decodeNil(forKey key: Key) throws -> Bool { false }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try T(from: decoder.nested(key))
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { throw plain(key) }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { throw plain(key) }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { throw plain(key) }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { throw plain(key) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { throw plain(key) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { throw plain(key) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { throw plain(key) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { throw plain(key) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { throw plain(key) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { throw plain(key) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { throw plain(key) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { throw plain(key) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { throw plain(key) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { throw plain(key) }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type,
    forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    throw plain(key)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    throw plain(key)
  }

  func superDecoder() throws -> any Decoder { decoder }

  func superDecoder(forKey key: Key) throws -> any Decoder { decoder.nested(key) }

  private func plain(_ key: Key) -> ArgumentDeclarationError {
    decoder.nested(key).notAnArgumentProperty()
  }
}
