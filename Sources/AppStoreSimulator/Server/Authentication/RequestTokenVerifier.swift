import Chronology
import CryptoSupport
import JSON
import Synchronization

/// Checks the ES256 request tokens (`Authorization: Bearer <JWT>`) as Apple does: the signature
/// against the accepted key, `kid`, `iss`, `aud`, `bid`, a lifetime (`exp - iat`) of at most 60
/// minutes, and expiry against the wall clock.
///
/// `iat` is optional: Apple's own Python and Java libraries sign tokens with `iss`, `aud`, `bid`
/// and `exp` only, and Apple accepts them. Without `iat` the lifetime is measured from now:
/// `exp` may lie at most 60 minutes (plus the allowed clock skew) ahead.
///
/// A client reuses one token for minutes, so what does not depend on the time (structure,
/// signature, claims) is checked once per token and remembered; only the times are checked on
/// every request.
final class RequestTokenVerifier: Sendable {
  /// The outcome for one request.
  enum Verdict: Hashable, Sendable {
    /// The token is good.
    case accepted
    /// The token is refused: 401.
    case rejected(TokenRejection)
    /// The token is good but names no app: 400 with 4000002, as Apple answers.
    case missingBundleId
  }

  /// What a token says once its signature has been checked.
  private struct Claims: Sendable {
    /// `nil` when the token carries no `iat`, as Apple's own libraries sign them.
    var issuedAt: Int64?
    var expiresAt: Int64
    var bundleId: String?
  }

  static let audience = "appstoreconnect-v1"
  static let maximumLifetimeSeconds: Int64 = 3600
  private static let cacheLimit = 1024

  private let apiKey: SimulatorAPIKey
  private let bundleId: String
  private let skewSeconds: Int64
  private let checked = Mutex<[String: Claims]>([:])

  init(apiKey: SimulatorAPIKey, bundleId: String, clockSkew: Duration) {
    self.apiKey = apiKey
    self.bundleId = bundleId
    skewSeconds = clockSkew.components.seconds
  }

  /// Checks the `Authorization` header of one request at the wall-clock instant `now`.
  func verify(authorization: String?, now: Timestamp) -> Verdict {
    guard let authorization else { return .rejected(.missingToken) }
    let claims: Claims
    // Keyed by the whole header, so a known token costs one hash and no copy.
    if let known = checked.withLock({ $0[authorization] }) {
      claims = known
    } else {
      guard authorization.utf8.count > 7, authorization.prefix(7).lowercased() == "bearer " else {
        return .rejected(.missingToken)
      }
      switch check(String(authorization.dropFirst(7))) {
      case .success(let fresh):
        claims = fresh
        checked.withLock { cache in
          // A bounded memory of good tokens; clients make a new one every few minutes.
          if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
          cache[authorization] = fresh
        }
      case .failure(let rejection):
        return .rejected(rejection.reason)
      }
    }
    let seconds = now.secondsSince1970
    if claims.expiresAt <= seconds { return .rejected(.expired) }
    if let issuedAt = claims.issuedAt {
      if issuedAt > seconds + skewSeconds { return .rejected(.issuedInFuture) }
    } else if claims.expiresAt - seconds > Self.maximumLifetimeSeconds + skewSeconds {
      // No `iat`: the token lives from now until `exp`, which bounds `exp` instead.
      return .rejected(.lifetimeTooLong)
    }
    guard let tokenBundleId = claims.bundleId else { return .missingBundleId }
    return tokenBundleId == bundleId ? .accepted : .rejected(.wrongBundleId)
  }

  private struct Refusal: Error {
    var reason: TokenRejection
  }

  /// Structure, header, signature and the claims that do not depend on the time.
  private func check(_ token: String) -> Result<Claims, Refusal> {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }),
      let header = Self.object(parts[0]), let claims = Self.object(parts[1])
    else { return .failure(Refusal(reason: .malformed)) }
    guard Self.string(header["alg"]) == "ES256",
      header["typ"] == nil || Self.string(header["typ"]) == "JWT"
    else { return .failure(Refusal(reason: .unsupportedAlgorithm)) }
    guard Self.string(header["kid"]) == apiKey.keyId else {
      return .failure(Refusal(reason: .unknownKeyId))
    }
    let signingInput = token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count)
    // A signature that is not base64url cannot verify; the client learns only "401" either way.
    guard let signature = try? Base64URL.decode(parts[2]),
      apiKey.publicKey.isValidSignature(signature, for: signingInput)
    else { return .failure(Refusal(reason: .badSignature)) }
    guard Self.string(claims["iss"]) == apiKey.issuerId else {
      return .failure(Refusal(reason: .wrongIssuer))
    }
    let audience: [String] =
      switch claims["aud"] {
      case .string(let text): [text]
      case .array(let values): values.compactMap(Self.string)
      default: []
      }
    guard audience.contains(Self.audience) else {
      return .failure(Refusal(reason: .wrongAudience))
    }
    guard let expiresAt = Self.integer(claims["exp"]) else {
      return .failure(Refusal(reason: .missingTimes))
    }
    let issuedAt = Self.integer(claims["iat"])
    if claims["iat"] != nil, issuedAt == nil {
      return .failure(Refusal(reason: .missingTimes))
    }
    if let issuedAt {
      let lifetime = expiresAt - issuedAt
      guard lifetime > 0, lifetime <= Self.maximumLifetimeSeconds else {
        return .failure(Refusal(reason: .lifetimeTooLong))
      }
    }
    return .success(
      Claims(issuedAt: issuedAt, expiresAt: expiresAt, bundleId: Self.string(claims["bid"])))
  }

  // MARK: - JSON

  private static func object(_ segment: Substring) -> [String: JSONValue]? {
    // A segment that is not base64url JSON makes the token malformed; the reason is the same
    // whichever decoding step fails, so it is not kept.
    guard let bytes = try? Base64URL.decode(segment),
      case .object(let members)? = try? JSONValue(parsing: bytes)
    else { return nil }
    var object: [String: JSONValue] = [:]
    for member in members { object[member.key] = member.value }
    return object
  }

  private static func string(_ value: JSONValue?) -> String? {
    if case .string(let text)? = value { return text }
    return nil
  }

  private static func integer(_ value: JSONValue?) -> Int64? {
    if case .number(let text)? = value { return Int64(text) }
    return nil
  }
}
