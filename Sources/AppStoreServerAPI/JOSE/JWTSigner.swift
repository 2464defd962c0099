import Chronology
import CryptoSupport
import JSON

/// Signs the ES256 JWTs that authenticate requests to the App Store Server API.
///
/// Header `{"alg":"ES256","kid":…,"typ":"JWT"}`; claims `iss`, `iat`, `exp` (seconds),
/// `aud = appstoreconnect-v1` and `bid`. The signature is the JOSE `r||s` form.
public struct JWTSigner: Sendable {
  /// The longest lifetime Apple accepts: 60 minutes.
  public static let maximumLifetime: Int64 = 60 * Timestamp.millisecondsPerMinute

  /// The default lifetime, as Apple's own client libraries use: 5 minutes.
  public static let defaultLifetime: Int64 = 5 * Timestamp.millisecondsPerMinute

  /// The `aud` claim of every token.
  public static let audience = "appstoreconnect-v1"

  /// Who signs.
  public let credentials: APICredentials

  /// How long each token is valid, in milliseconds (whole seconds are used).
  public let lifetime: Int64

  /// A signer for `credentials`.
  ///
  /// - Parameters:
  ///   - credentials: The issuer, key and bundle id.
  ///   - lifetime: Token lifetime in milliseconds: at least one second, at most 60 minutes.
  /// - Throws: ``ConfigurationError`` if the lifetime is out of range.
  public init(credentials: APICredentials, lifetime: Int64 = JWTSigner.defaultLifetime)
    throws(ConfigurationError)
  {
    guard lifetime >= Timestamp.millisecondsPerSecond, lifetime <= Self.maximumLifetime else {
      throw ConfigurationError(
        "the request token lifetime is \(lifetime) ms; the App Store Server API accepts at most "
          + "60 minutes (3600000 ms) and it must be at least 1 second; the default is 5 minutes")
    }
    self.credentials = credentials
    self.lifetime = lifetime
  }

  /// A new token issued at `now`.
  ///
  /// - Parameter now: The issue instant (truncated to the second).
  /// - Returns: The token and its expiry.
  /// - Throws: ``CryptoSupport/CryptoError`` if OpenSSL cannot sign.
  public func token(issuedAt now: Timestamp) throws(CryptoError) -> BearerToken {
    let issuedAt = now.secondsSince1970
    let expiresAt = issuedAt + lifetime / Timestamp.millisecondsPerSecond

    var header = JSONWriter()
    header.beginObject()
    header.field("alg", "ES256")
    header.field("kid", credentials.keyId)
    header.field("typ", "JWT")
    header.endObject()

    var claims = JSONWriter()
    claims.beginObject()
    claims.field("iss", credentials.issuerId)
    claims.field("iat", issuedAt)
    claims.field("exp", expiresAt)
    claims.field("aud", Self.audience)
    claims.field("bid", credentials.bundleId)
    claims.endObject()

    let signingInput = Base64URL.encode(header.bytes) + "." + Base64URL.encode(claims.bytes)
    let signature = try credentials.privateKey.signature(for: signingInput.utf8)
    return BearerToken(
      value: signingInput + "." + Base64URL.encode(signature),
      issuedAt: Timestamp(secondsSince1970: issuedAt),
      expiresAt: Timestamp(secondsSince1970: expiresAt))
  }
}
