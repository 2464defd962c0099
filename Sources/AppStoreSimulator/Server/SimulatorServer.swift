import AppStoreServerAPI
import Chronology
import CryptoSupport
import Foundation
import HTTPServer

/// The App Store Server API simulator: two loopback listeners, production and sandbox, as
/// Apple has two hosts, answering for a world exactly as the client expects from Apple.
///
/// ```swift
/// let key = try SimulatorTestKey.generate(bundleId: world.bundleId)
/// let server = try SimulatorServer.start(
///   configuration: SimulatorConfiguration(
///     world: world, signingChain: chain, apiKey: key.apiKey, now: { wallClock() }))
/// defer { server.stop() }
/// let client = try AppStoreServerAPIClient(
///   configuration: ClientConfiguration(
///     credentials: key.credentials, trustedRoots: [chain.root.certificate],
///     appAppleId: world.appAppleId, baseURLOverrides: server.baseURLOverrides))
/// ```
///
/// Every request is authenticated like Apple does it, rate-limited per endpoint and
/// environment, and may meet a configured fault; every signed value is signed with the
/// configured chain. See `Documentation/Simulator.md`, "The server".
public final class SimulatorServer: Sendable {
  /// The configuration the server was started with (its world as it was at start).
  public let configuration: SimulatorConfiguration

  let responder: SimulatorResponder
  private let production: HTTPServer
  private let sandbox: HTTPServer

  private init(
    configuration: SimulatorConfiguration, responder: SimulatorResponder,
    production: HTTPServer, sandbox: HTTPServer
  ) {
    self.configuration = configuration
    self.responder = responder
    self.production = production
    self.sandbox = sandbox
  }

  // MARK: - Starting and stopping

  /// Starts both listeners on loopback.
  ///
  /// - Parameter configuration: the world, chain, key, limits, faults and clocks.
  /// - Returns: the running server; call `stop()` when done with it.
  /// - Throws: `SimulatorStartError` when a setting is out of range or a listener cannot open
  ///   (for example, its port is taken).
  public static func start(configuration: SimulatorConfiguration) throws(SimulatorStartError)
    -> SimulatorServer
  {
    try configuration.validate()
    let responder = try SimulatorResponder.start(configuration: configuration)
    func listen(_ environment: SimulatedEnvironment, port: Int) throws(SimulatorStartError)
      -> HTTPServer
    {
      var http = configuration.http
      http.port = port
      do {
        return try HTTPServer.start(configuration: http) { request in
          responder.respond(to: request, in: environment)
        }
      } catch {
        throw SimulatorStartError(
          "the simulator's \(environment.rawValue.lowercased()) listener cannot start: "
            + error.message)
      }
    }
    let production = try listen(.production, port: configuration.productionPort)
    let sandbox: HTTPServer
    do {
      sandbox = try listen(.sandbox, port: configuration.sandboxPort)
    } catch {
      production.stop()
      throw error
    }
    return SimulatorServer(
      configuration: configuration, responder: responder, production: production,
      sandbox: sandbox)
  }

  /// Stops both listeners: requests in progress finish (up to `gracePeriod`), then every
  /// connection closes and every thread is joined. Calling it again does nothing.
  ///
  /// - Parameter gracePeriod: how long requests in progress may take to finish; 5 s by default.
  public func stop(gracePeriod: Duration = .seconds(5)) {
    production.stop(gracePeriod: gracePeriod)
    sandbox.stop(gracePeriod: gracePeriod)
  }

  // MARK: - Where it listens

  /// The production listener's port.
  public var productionPort: Int { production.port }

  /// The sandbox listener's port.
  public var sandboxPort: Int { sandbox.port }

  /// `http://127.0.0.1:<production port>`.
  public var productionURL: URL { Self.url(port: production.port) }

  /// `http://127.0.0.1:<sandbox port>`.
  public var sandboxURL: URL { Self.url(port: sandbox.port) }

  /// Both base URLs, for `ClientConfiguration.baseURLOverrides`.
  public var baseURLOverrides: [AppStoreEnvironment: URL] {
    [.production: productionURL, .sandbox: sandboxURL]
  }

  /// The base URL of one environment.
  ///
  /// - Parameter environment: the environment.
  /// - Returns: its base URL.
  public func url(for environment: SimulatedEnvironment) -> URL {
    environment == .production ? productionURL : sandboxURL
  }

  private static func url(port: Int) -> URL {
    // A literal host and a port in range always make a URL; the fallback is never taken.
    URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
  }

  // MARK: - Observing

  /// Counters of everything answered so far, with both listeners' HTTP statistics.
  ///
  /// - Returns: a snapshot.
  public func statistics() -> SimulatorStatistics {
    SimulatorStatistics(
      endpoints: responder.recorder.counterSnapshot(), productionHTTP: production.statistics,
      sandboxHTTP: sandbox.statistics, cachedSignedValues: responder.signed.cachedCount)
  }

  /// The most recent requests (up to `requestLogCapacity`), oldest first.
  ///
  /// - Returns: the log entries.
  public func requestLog() -> [SimulatorRequestLogEntry] {
    responder.recorder.entries()
  }

  /// The world as it stands now, with the changes requests made (app account tokens).
  ///
  /// - Returns: the world.
  /// - Throws: ``WorldFileError`` when the world is read from a file that changed since.
  public func world() throws -> World {
    try responder.state.world()
  }
}
