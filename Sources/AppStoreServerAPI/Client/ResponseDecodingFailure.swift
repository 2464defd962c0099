import JSON

/// Why a response body could not be turned into a verified response.
enum ResponseDecodingFailure: Error {
  /// The body is not the JSON the endpoint returns.
  case json(JSONError)
  /// A signed value inside failed verification.
  case verification(VerificationFailure)
  /// The JSON is well-formed but lacks what the endpoint always returns.
  case shape(String)
}

extension ResponseDecodingFailure {
  /// Reads a body with `body`, mapping JSON errors.
  static func reading<Value>(
    _ bytes: [UInt8], _ body: (inout JSONReader) throws(JSONError) -> Value
  ) throws(ResponseDecodingFailure) -> Value {
    do {
      return try JSONReader.reading(bytes, body)
    } catch {
      throw .json(error)
    }
  }

  /// Verifies each JWS with `verify`, mapping verification failures.
  static func verifying<Payload>(
    _ jws: [String], _ verify: (String) throws(VerificationFailure) -> Verified<Payload>
  ) throws(ResponseDecodingFailure) -> [Verified<Payload>] {
    var verified: [Verified<Payload>] = []
    verified.reserveCapacity(jws.count)
    for value in jws {
      do {
        verified.append(try verify(value))
      } catch {
        throw .verification(error)
      }
    }
    return verified
  }
}
