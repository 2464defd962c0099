import AppStoreServerAPI
import AppStoreSimulator
import ArgumentParsing
import Foundation
import MigrationPipeline

/// Which App Store a command talks to: Apple, when credentials are configured (environment
/// variables or the configuration file), else the embedded simulator seeded from `--world`.
struct AppStoreOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The simulated world used when no App Store credentials are configured.", valueName: "dir"))
  var world: String = "Legacy/sample"

  @Option(
    help: ArgumentHelp(
      "The simulated App Store's clock (default: the world's clock; up to the end of a timeline "
        + "generated with --days-after). Only with the built-in simulator.", valueName: "instant"))
  var clock: String?

  /// Apple with its settings, or the embedded simulator.
  ///
  /// - Parameter config: the `--config` file, or `nil` for the default one.
  func choice(config: String?) throws -> AppStoreChoice {
    do {
      return try ToolConfiguration.resolve(
        file: config, environment: ProcessInfo.processInfo.environment)
    } catch {
      throw ToolFailure.configuration("\(error)")
    }
  }

  /// Chooses the App Store, connects to it and, when it is simulated, says so on standard error.
  ///
  /// - Parameters:
  ///   - config: the `--config` file, or `nil` for the default one.
  ///   - rateShare: the share of Apple's per-app rate limits the client may use.
  func connectAndAnnounce(config: String?, rateShare: Double = 1) throws -> AppStoreConnection {
    let connection = try connect(try choice(config: config), rateShare: rateShare)
    connection.announce()
    return connection
  }

  /// Connects: builds Apple's client, or starts the embedded simulator and a client for it.
  ///
  /// - Parameters:
  ///   - choice: what ``choice()`` returned.
  ///   - rateShare: the share of Apple's per-app rate limits the client may use.
  /// - Returns: the connection; stop it when done.
  func connect(_ choice: AppStoreChoice, rateShare: Double = 1) throws -> AppStoreConnection {
    switch choice {
    case .apple(let settings):
      let client: AppStoreServerAPIClient
      var configuration = settings.configuration
      configuration.rateLimits.share = rateShare
      do {
        client = try AppStoreServerAPIClient(configuration: configuration)
      } catch {
        throw ToolFailure.configuration("\(error)")
      }
      if clock != nil {
        throw ToolFailure.configuration(
          "--clock sets the built-in simulator's clock, but App Store credentials are configured, "
            + "so this run talks to Apple, whose clock is its own; drop --clock")
      }
      let environment = settings.environment?.rawValue.lowercased() ?? "auto"
      return AppStoreConnection(
        connected: ConnectedAppStore(
          client: client,
          source: .init(
            isSimulated: false,
            description: Self.describe(settings.configuration, environment: environment),
            environment: environment),
          identity: "apple \(settings.configuration.credentials.bundleId)",
          clock: settings.clock),
        embedded: nil, environment: settings.environment)
    case .embeddedSimulator:
      let embedded: EmbeddedAppStore
      do {
        embedded = try EmbeddedAppStore.start(
          worldDirectory: world, now: WallClock.now, clock: try clock.map(InstantArgument.parse))
      } catch {
        throw ToolFailure.configuration(
          "no App Store credentials are configured, so receipt-migrate would use the built-in "
            + "simulator, but it cannot start: \(error)")
      }
      let client: AppStoreServerAPIClient
      var configuration = embedded.clientConfiguration
      configuration.rateLimits.share = rateShare
      do {
        // The embedded root is the simulator's own: the notice about a root that is not Apple's
        // would only repeat what the run already says plainly.
        client = try AppStoreServerAPIClient(configuration: configuration, notice: { _ in })
      } catch {
        embedded.stop()
        throw ToolFailure.configuration("\(error)")
      }
      return AppStoreConnection(
        connected: ConnectedAppStore(
          client: client,
          source: .init(isSimulated: true, description: embedded.description, environment: "auto"),
          identity: embedded.identity, clock: embedded.clock),
        embedded: embedded, environment: nil)
    }
  }

  /// What a run with credentials talked to, in reports' words: Apple only when the base URLs
  /// are Apple's and signed data chains to Apple's root; otherwise the server it was (a
  /// simulator served on loopback, a proxy) and the root it trusted.
  static func describe(_ configuration: ClientConfiguration, environment: String) -> String {
    let overridden = configuration.baseURLOverrides.sorted { $0.key.rawValue < $1.key.rawValue }
    let appleRoot = configuration.trustedRoots.contains {
      $0.sha256Fingerprint == SignedDataVerifier.appleRootCAG3Fingerprint
    }
    guard !overridden.isEmpty || !appleRoot else {
      return "App Store Server API (Apple, environment \(environment))"
    }
    var parts: [String] = []
    if !overridden.isEmpty {
      parts.append(
        "at "
          + overridden.map { "\($0.value.absoluteString) for \($0.key.rawValue)" }.joined(
            separator: ", "))
    }
    if !appleRoot {
      let subjects = configuration.trustedRoots.map { "\($0.subject)" }.joined(separator: "; ")
      parts.append("trusting a root that is not Apple's (\(subjects))")
    }
    return "App Store Server API, NOT Apple: " + parts.joined(separator: ", ")
      + " (environment \(environment))"
  }
}
