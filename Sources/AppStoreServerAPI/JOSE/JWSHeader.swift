import CryptoSupport
import JSON

/// The members of a JWS protected header that App Store data uses.
public struct JWSHeader: Sendable, Hashable {
  /// The signature algorithm (`ES256` for App Store data), or `nil` when absent.
  public var algorithm: String?

  /// The certificate chain, leaf first, each standard base64 DER.
  public var x5c: [String]

  /// The key id (`kid`), present in request tokens, not in App Store data.
  public var keyId: String?

  /// The token type (`typ`), if any.
  public var type: String?

  /// A header from its members.
  ///
  /// - Parameters:
  ///   - algorithm: The `alg` member.
  ///   - x5c: The `x5c` member.
  ///   - keyId: The `kid` member.
  ///   - type: The `typ` member.
  public init(algorithm: String?, x5c: [String] = [], keyId: String? = nil, type: String? = nil) {
    self.algorithm = algorithm
    self.x5c = x5c
    self.keyId = keyId
    self.type = type
  }

  /// Decodes a base64url header segment.
  ///
  /// - Parameter segment: The header segment's UTF-8 bytes.
  /// - Returns: The header.
  /// - Throws: ``VerificationFailure/malformed(_:)`` naming what does not decode.
  static func parse(segment: UnsafeBufferPointer<UInt8>) throws(VerificationFailure) -> JWSHeader {
    let json: [UInt8]
    do {
      json = try Base64URL.decode(utf8: segment)
    } catch {
      throw .malformed("the header is not base64url (\(error.message))")
    }
    do throws(JSONError) {
      return try JSONReader.reading(json) { reader throws(JSONError) in
        var header = JWSHeader(algorithm: nil)
        try reader.beginObject()
        while let key = try reader.nextKey() {
          switch key {
          case "alg": header.algorithm = try reader.readLenientString()
          case "kid": header.keyId = try reader.readLenientString()
          case "typ": header.type = try reader.readLenientString()
          case "x5c": header.x5c = try reader.readOptionalStrings() ?? []
          default: try reader.skipValue()
          }
        }
        return header
      }
    } catch {
      throw .malformed("the header is not a JSON object with string members (\(error))")
    }
  }

  /// The header as compact JSON, members in the order `alg`, `kid`, `typ`, `x5c`.
  ///
  /// - Returns: UTF-8 JSON bytes.
  public func jsonBytes() -> [UInt8] {
    var writer = JSONWriter()
    writer.beginObject()
    writer.member("alg", algorithm)
    writer.member("kid", keyId)
    writer.member("typ", type)
    if !x5c.isEmpty { writer.member("x5c", x5c) }
    writer.endObject()
    return writer.bytes
  }
}
