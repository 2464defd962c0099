/// Why a request token was refused with 401: the simulator logs it, Apple only says
/// "Unauthenticated".
public enum TokenRejection: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// No `Authorization` header, or not the `Bearer` scheme.
  case missingToken = "missing_token"
  /// Not three base64url parts of JSON.
  case malformed
  /// The header's `alg` is not `ES256` (or its `typ` is not `JWT`).
  case unsupportedAlgorithm = "unsupported_algorithm"
  /// The header's `kid` is not the accepted key's id.
  case unknownKeyId = "unknown_key_id"
  /// The signature does not verify with the accepted key.
  case badSignature = "bad_signature"
  /// The `iss` claim is not the accepted issuer id.
  case wrongIssuer = "wrong_issuer"
  /// The `aud` claim is not `appstoreconnect-v1`.
  case wrongAudience = "wrong_audience"
  /// The `bid` claim is another app's bundle id.
  case wrongBundleId = "wrong_bundle_id"
  /// `exp` is missing or not an integer, or `iat` is present and not an integer.
  case missingTimes = "missing_times"
  /// `exp - iat` is more than 60 minutes, or not positive; without `iat`, `exp` lies more than
  /// 60 minutes (plus the allowed clock skew) ahead of now.
  case lifetimeTooLong = "lifetime_too_long"
  /// `exp` has passed.
  case expired
  /// `iat` is later than now, beyond the allowed clock skew.
  case issuedInFuture = "issued_in_future"
  /// The app has no production release, so production refuses every token.
  case noProductionRelease = "no_production_release"

  /// The raw value.
  public var description: String { rawValue }
}
