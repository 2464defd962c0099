import AppStoreServerAPI
import CryptoSupport
import JSON
import MigrationStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the payload of a stored JWS without verifying it again: it was verified before it was
/// stored, and a JWS that failed verification is never stored.
enum StoredSignedValue {
  /// Why a stored value could not be read back.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The decoded payload of a compact JWS.
  static func decode<Payload: JSONRepresentable>(_ jws: String, as type: Payload.Type) throws
    -> Payload
  {
    try Payload.decode(json: try bytes(of: jws, payload(of:)))
  }

  /// The decoded payload of a stored signed value: from the rest alone when its header is
  /// stored apart (the rest is `payload.signature`), else from the whole value.
  static func decode<Payload: JSONRepresentable>(
    _ value: StoredSignedText, as type: Payload.Type
  ) throws -> Payload {
    let payload = value.header == nil ? payload(of:) : payload(ofRest:)
    return try Payload.decode(json: try bytes(of: value.rest, payload))
  }

  /// Hands the text's UTF-8 bytes to `read`: the parts are found in the bytes, as splitting the
  /// String walks it character by character, which cost more than decoding the payload (a stored
  /// JWS is ~4 KB, most of it the certificate chain in the header), and the compare stage reads
  /// every stored value.
  private static func bytes(
    of text: String, _ read: (UnsafeBufferPointer<UInt8>) throws -> [UInt8]
  ) throws -> [UInt8] {
    var text = text
    text.makeContiguousUTF8()
    return try text.utf8.withContiguousStorageIfAvailable(read)
      ?? Array(text.utf8).withUnsafeBufferPointer(read)
  }

  /// The base64url-decoded middle part of a compact JWS: exactly two dots, header and
  /// signature around it.
  private static func payload(of jws: UnsafeBufferPointer<UInt8>) throws -> [UInt8] {
    // memchr, not a Swift loop over the bytes: the header before the first dot is the
    // certificate chain, about 2.9 KB, and this runs for every stored value compare reads.
    guard let base = jws.baseAddress,
      let firstDot = memchr(base, Int32(UInt8(ascii: ".")), jws.count)
    else {
      throw Failure(description: "a stored signed value is not a compact JWS")
    }
    let start = base.distance(to: firstDot.assumingMemoryBound(to: UInt8.self)) + 1
    return try payload(ofRest: UnsafeBufferPointer(rebasing: jws[start...]))
  }

  /// The base64url-decoded first part of `payload.signature`: exactly one dot.
  private static func payload(ofRest rest: UnsafeBufferPointer<UInt8>) throws -> [UInt8] {
    let dot = Int32(UInt8(ascii: "."))
    guard let base = rest.baseAddress, let found = memchr(base, dot, rest.count) else {
      throw Failure(description: "a stored signed value is not a compact JWS")
    }
    let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    guard memchr(base + end + 1, dot, rest.count - end - 1) == nil else {
      throw Failure(description: "a stored signed value is not a compact JWS")
    }
    return try Base64URL.decode(utf8: UnsafeBufferPointer(rebasing: rest[0..<end]))
  }
}
