import AppStoreServerAPI
import CryptoSupport
import JSON

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
    // The parts are found in the UTF-8 bytes: splitting the String walks it character by
    // character, which cost more than decoding the payload (a stored JWS is ~4 KB, most of it
    // the certificate chain in the header), and the compare stage reads every stored JWS.
    var text = jws
    text.makeContiguousUTF8()
    let json =
      try text.utf8.withContiguousStorageIfAvailable(payload(of:))
      ?? Array(text.utf8).withUnsafeBufferPointer(payload(of:))
    return try Payload.decode(json: json)
  }

  /// The base64url-decoded middle part of a compact JWS: exactly two dots, header and
  /// signature around it.
  private static func payload(of jws: UnsafeBufferPointer<UInt8>) throws -> [UInt8] {
    let dot = UInt8(ascii: ".")
    guard let first = jws.firstIndex(of: dot), let last = jws.lastIndex(of: dot), first < last,
      !jws[(first + 1)..<last].contains(dot)
    else {
      throw Failure(description: "a stored signed value is not a compact JWS")
    }
    return try Base64URL.decode(utf8: UnsafeBufferPointer(rebasing: jws[(first + 1)..<last]))
  }
}
