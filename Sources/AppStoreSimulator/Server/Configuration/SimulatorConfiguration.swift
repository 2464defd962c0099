import Chronology
import CryptoSupport
import HTTPServer

/// Everything a `SimulatorServer` needs: the world it answers for, the chain it signs with, the
/// API key it accepts, its limits and faults, and its clocks.
///
/// Two clocks, on purpose: signed data carries the **world's** clock (`world.now`), so answers
/// are deterministic; request tokens and rate limits are judged by the injected **wall clock**
/// `now`, because clients sign tokens and pace requests with their real clock.
public struct SimulatorConfiguration: Sendable {
  /// The App Store's truth. `setAppAccountToken` changes the server's copy, never this value.
  /// With ``worldFile``, only its header (clock, app, products) — the customers are in the file.
  public var world: World
  /// `world.json` opened to be read customer by customer as requests ask (a world too large to
  /// hold); `nil` when the customers are in ``world``.
  public var worldFile: WorldFile?
  /// The root → intermediate → leaf chain every signed value is signed with.
  public var signingChain: CertificateAuthorityChain
  /// The API key whose tokens are accepted.
  public var apiKey: SimulatorAPIKey
  /// The wall clock that token expiry and rate limits are judged by.
  public var now: @Sendable () -> Timestamp
  /// The App Store's clock: the instant every answer describes (history, statuses, notification
  /// history and the `signedDate` of what it signs). `nil` (the default) is the world's own
  /// clock, `world.now`; a world generated with `--days-after` can be served at any instant up to
  /// the end of its timeline, so a nightly audit can be played night by night.
  public var clock: Timestamp?
  /// Transactions per history and refund history page, and notifications per page: 20.
  public var pageSize: Int
  /// The rate limits; Apple's documented ones by default.
  public var rateLimits: SimulatorRateLimits
  /// The faults to act out; none by default.
  public var faults: FaultPlan
  /// The seed of the random stream faults and latencies are drawn from.
  public var seed: UInt64
  /// Answers where Apple's documentation is silent.
  public var behaviour: UnconfirmedBehaviour
  /// Whether the app has had a production release; without one, production answers every
  /// request 401, as Apple does.
  public var productionHasRelease: Bool
  /// The `appTransactionId`s of customers whose app transaction does not exist (answered
  /// 4040019), such as customers who only ever bought before app transactions existed.
  public var customersWithoutAppTransaction: Set<String>
  /// The share of notifications whose first delivery attempt failed; 5 % by default.
  public var notificationFailureRate: Double
  /// Of those, in production, the share a later attempt delivers (Apple retries up to five more
  /// times, 1, 12, 24, 48 and 72 hours after the previous attempt; which retry succeeds is drawn
  /// evenly); the rest are never delivered. Half by default. The sandbox tries once.
  public var lateDeliveryShare: Double
  /// The notification URL the app configured, per environment: version 2 (the history lists
  /// what Apple sends) unless set here.
  public var notificationURLs: [SimulatedEnvironment: NotificationURL]
  /// The share of notifications the history leaves out although they happened: a change feed
  /// that drops some. 0 by default.
  public var notificationOmissionRate: Double
  /// How far in the future a token's `iat` may be, for clients whose clock runs ahead: 60 s.
  public var tokenClockSkew: Duration
  /// The production listener's port; 0 (the default) for an ephemeral one.
  public var productionPort: Int
  /// The sandbox listener's port; 0 (the default) for an ephemeral one.
  public var sandboxPort: Int
  /// Limits, timeouts and the HTTP-level request log of both listeners; each listener's port
  /// comes from `productionPort` and `sandboxPort` instead.
  public var http: HTTPServerConfiguration
  /// How many entries the in-memory request log keeps (the oldest are dropped); 10,000.
  public var requestLogCapacity: Int
  /// How many signed values of each kind (transactions, renewal information, app
  /// transactions, notifications) the server keeps to answer again without signing; 16,384.
  /// Each cache keeps the certificate-chain header once and about 2 KB per value, and never
  /// more than 48 MiB, so the four caches hold at most 192 MiB (about 100 MiB for a backfill,
  /// which asks for no notification); a backfill reads each value once or twice in quick
  /// succession, so a larger cache saves little.
  public var signedValueCacheLimit: Int
  /// Called with every request's log entry as it is answered, on the connection's thread.
  public var requestLog: (@Sendable (SimulatorRequestLogEntry) -> Void)?
  /// A file keeping the app account tokens Set App Account Token set, so that a server started
  /// again (at the same clock or a later one) still holds them, as Apple keeps what it is given;
  /// `nil` (the default): the changes last as long as the server.
  public var tokenLogPath: String?

  /// Creates a configuration with the documented defaults.
  ///
  /// - Parameters:
  ///   - world: the world to answer for.
  ///   - signingChain: the chain to sign with.
  ///   - apiKey: the accepted API key.
  ///   - now: the wall clock for token expiry and rate limits.
  public init(
    world: World, signingChain: CertificateAuthorityChain, apiKey: SimulatorAPIKey,
    now: @escaping @Sendable () -> Timestamp
  ) {
    self.world = world
    worldFile = nil
    self.signingChain = signingChain
    self.apiKey = apiKey
    self.now = now
    pageSize = 20
    rateLimits = .appleDefaults
    faults = .none
    seed = 1
    behaviour = UnconfirmedBehaviour()
    productionHasRelease = true
    customersWithoutAppTransaction = []
    notificationFailureRate = 0.05
    lateDeliveryShare = 0.5
    notificationURLs = [:]
    notificationOmissionRate = 0
    tokenClockSkew = .seconds(60)
    productionPort = 0
    sandboxPort = 0
    http = HTTPServerConfiguration()
    requestLogCapacity = 10_000
    signedValueCacheLimit = 16_384
    requestLog = nil
    tokenLogPath = nil
  }

  /// Creates a configuration for a world read from its file as requests ask.
  ///
  /// - Parameters:
  ///   - worldFile: the opened `world.json`.
  ///   - signingChain: the chain to sign with.
  ///   - apiKey: the accepted API key.
  ///   - now: the wall clock for token expiry and rate limits.
  public init(
    worldFile: WorldFile, signingChain: CertificateAuthorityChain, apiKey: SimulatorAPIKey,
    now: @escaping @Sendable () -> Timestamp
  ) {
    self.init(world: worldFile.header, signingChain: signingChain, apiKey: apiKey, now: now)
    self.worldFile = worldFile
  }

  /// Checks the settings that have a valid range.
  /// The instant the server answers for: ``clock``, or the world's clock.
  public var effectiveClock: Timestamp { clock ?? world.now }

  func validate() throws(SimulatorStartError) {
    if let clock, clock > world.latestClock {
      throw SimulatorStartError(
        "the clock \(clock.iso8601) lies after the end of the world's timeline "
          + "(\(world.latestClock.iso8601)); generate the world with --days-after to serve later "
          + "instants")
    }
    guard (1...200).contains(pageSize) else {
      throw SimulatorStartError("the page size is \(pageSize); it must be between 1 and 200")
    }
    guard (0...1).contains(notificationFailureRate) else {
      throw SimulatorStartError(
        "the notification failure rate is \(notificationFailureRate); it must be between 0 and 1")
    }
    guard (0...1).contains(lateDeliveryShare) else {
      throw SimulatorStartError(
        "the late delivery share is \(lateDeliveryShare); it must be between 0 and 1")
    }
    guard (0...1).contains(notificationOmissionRate) else {
      throw SimulatorStartError(
        "the notification omission rate is \(notificationOmissionRate); it must be between 0 and 1")
    }
    guard requestLogCapacity >= 0 else {
      throw SimulatorStartError("the request log capacity must be 0 or more")
    }
    guard signedValueCacheLimit >= 1 else {
      throw SimulatorStartError("the signed value cache limit must be 1 or more")
    }
    do {
      try faults.validate()
    } catch {
      throw SimulatorStartError(error.message)
    }
    for endpointRates in [rateLimits.production, rateLimits.sandbox] {
      for (endpoint, rate) in endpointRates where !(rate > 0 && rate.isFinite) {
        throw SimulatorStartError(
          "the rate limit of \(endpoint) is \(rate) requests per second; it must be positive "
            + "(turn limits off with SimulatorRateLimits.off)")
      }
    }
    guard rateLimits.sandboxShare > 0 else {
      throw SimulatorStartError("the sandbox share of the rate limits must be positive")
    }
  }
}
