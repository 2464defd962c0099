import CryptoSupport
import Foundation

/// Everything an ``AppStoreServerAPIClient`` needs to know: who it is, whom it trusts, where the
/// API is, and how hard it may push.
public struct ClientConfiguration: Sendable {
  /// The App Store Connect credentials that sign request tokens.
  public var credentials: APICredentials

  /// The roots signed data must chain to (Apple Root CA - G3 against Apple).
  public var trustedRoots: [X509Certificate]

  /// The app's Apple id, compared in production app transactions and notifications.
  public var appAppleId: Int64?

  /// Base URLs that replace Apple's per environment (the simulator runs on loopback).
  public var baseURLOverrides: [AppStoreEnvironment: URL]

  /// Which failures are retried and how.
  public var retryPolicy: RetryPolicy

  /// Rate limits per endpoint and environment.
  public var rateLimits: RateLimits

  /// The most requests in flight at once, over all endpoints.
  public var maximumConcurrentRequests: Int

  /// The lifetime of each request token, in milliseconds (at most 60 minutes).
  public var tokenLifetime: Int64

  /// The `User-Agent` header, naming the toolkit and its version.
  public var userAgent: String

  /// A configuration with the given credentials and trust, and defaults for the rest.
  ///
  /// - Parameters:
  ///   - credentials: The App Store Connect credentials.
  ///   - trustedRoots: The trusted roots.
  ///   - appAppleId: The app's Apple id.
  ///   - baseURLOverrides: Base URLs per environment replacing Apple's.
  ///   - retryPolicy: The retry policy.
  ///   - rateLimits: The rate limits.
  ///   - maximumConcurrentRequests: The most requests in flight at once: 16.
  ///   - tokenLifetime: Token lifetime in milliseconds: 5 minutes.
  ///   - userAgent: The `User-Agent` header.
  public init(
    credentials: APICredentials, trustedRoots: [X509Certificate], appAppleId: Int64?,
    baseURLOverrides: [AppStoreEnvironment: URL] = [:], retryPolicy: RetryPolicy = .standard,
    rateLimits: RateLimits = .appleDefaults, maximumConcurrentRequests: Int = 16,
    tokenLifetime: Int64 = JWTSigner.defaultLifetime,
    userAgent: String = ClientConfiguration.defaultUserAgent
  ) {
    self.credentials = credentials
    self.trustedRoots = trustedRoots
    self.appAppleId = appAppleId
    self.baseURLOverrides = baseURLOverrides
    self.retryPolicy = retryPolicy
    self.rateLimits = rateLimits
    self.maximumConcurrentRequests = maximumConcurrentRequests
    self.tokenLifetime = tokenLifetime
    self.userAgent = userAgent
  }

  /// The default `User-Agent`.
  public static let defaultUserAgent = "receipt-migrate/0.1.0-dev (AppStoreServerAPI)"

  /// The base URL requests to `environment` go to: the override, or Apple's.
  ///
  /// - Parameter environment: The environment.
  /// - Returns: The URL, or `nil` for an environment Apple does not serve and no override names.
  public func baseURL(for environment: AppStoreEnvironment) -> URL? {
    baseURLOverrides[environment] ?? environment.defaultBaseURL
  }
}
