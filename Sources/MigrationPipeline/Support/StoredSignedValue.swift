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
    let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else {
      throw Failure(description: "a stored signed value is not a compact JWS")
    }
    let json = try Base64URL.decode(parts[1])
    return try Payload.decode(json: json)
  }
}
