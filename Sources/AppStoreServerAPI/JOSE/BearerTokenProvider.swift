import Chronology
import CryptoSupport
import Synchronization

/// Hands out the current request token, signing a new one only when the current one is close to
/// expiry (or was rejected), so that thousands of requests share a handful of signatures.
///
/// Thread safety: shared by every concurrent request of a client; the token is behind a mutex.
public final class BearerTokenProvider: Sendable {
  /// How the tokens are signed.
  public let signer: JWTSigner

  /// How long before expiry a token stops being handed out, in milliseconds: a fifth of the
  /// lifetime, at most one minute, so a token never expires in flight.
  public let refreshMargin: Int64

  private let now: @Sendable () -> Timestamp
  private let current = Mutex<BearerToken?>(nil)

  /// A provider signing with `signer`, reading the time from `now`.
  ///
  /// - Parameters:
  ///   - signer: The JWT signer.
  ///   - now: The wall clock.
  public init(signer: JWTSigner, now: @escaping @Sendable () -> Timestamp) {
    self.signer = signer
    self.now = now
    refreshMargin = min(Timestamp.millisecondsPerMinute, signer.lifetime / 5)
  }

  /// The token to send now: the current one, or a new one if it expires within the margin.
  ///
  /// - Returns: A token valid for at least ``refreshMargin`` more milliseconds.
  /// - Throws: ``CryptoSupport/CryptoError`` if a new token cannot be signed.
  public func token() throws(CryptoError) -> BearerToken {
    let instant = now()
    let outcome: Result<BearerToken, CryptoError> = current.withLock { current in
      if let token = current, instant.adding(milliseconds: refreshMargin) < token.expiresAt,
        token.issuedAt.secondsSince1970 <= instant.secondsSince1970
      {
        return .success(token)
      }
      // Signing under the lock keeps a burst of requests from signing one token each.
      do throws(CryptoError) {
        let token = try signer.token(issuedAt: instant)
        current = token
        return .success(token)
      } catch {
        return .failure(error)
      }
    }
    return try outcome.get()
  }

  /// Forgets `token` after the server rejected it (401), so the next request signs a new one.
  ///
  /// - Parameter token: The rejected token; a newer current token is kept.
  public func invalidate(_ token: BearerToken) {
    current.withLock { current in
      if current == token { current = nil }
    }
  }
}
