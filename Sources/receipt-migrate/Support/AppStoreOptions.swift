import AppStoreServerAPI
import AppStoreSimulator
import ArgumentParsing
import Foundation
import MigrationPipeline

/// Which App Store a command talks to: Apple, when credentials are configured (environment
/// variables or the configuration file), else the embedded simulator seeded from `--world`
/// (the sample world by default). Commands that must never run on simulated data by accident
/// (`audit`, `link --apply`, `link --undo`) use the simulator only when it is asked for on the
/// command line: `--simulated` or `--world DIR`.
struct AppStoreOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Use the built-in simulator seeded from this world (written by simulator generate); only "
        + "without App Store credentials.", valueName: "dir"))
  var world: String?

  @Flag(
    help: ArgumentHelp(
      "Use the built-in simulator seeded from the sample world (Legacy/sample); only without "
        + "App Store credentials."))
  var simulated = false

  @Option(
    help: ArgumentHelp(
      "The simulated App Store's clock (default: the world's clock; up to the end of a timeline "
        + "generated with --days-after). Only with the built-in simulator.", valueName: "instant"))
  var clock: String?

  /// The world the sample runs against.
  static let sampleWorld = "Legacy/sample"

  /// The simulated world: `--world`, or the sample.
  var worldDirectory: String { world ?? Self.sampleWorld }

  /// Whether the command line asks for the built-in simulator.
  var simulatorRequested: Bool { simulated || world != nil }

  /// Apple with its settings, or the embedded simulator.
  ///
  /// - Parameters:
  ///   - config: the `--config` file, or `nil` for the default one.
  ///   - explicitSimulatorFor: a command that uses the simulator only when asked for on the
  ///     command line (`audit`, `link --apply`); `nil` when the sample is its default.
  /// - Throws: ``ToolFailure/configuration(_:)`` for invalid settings, credentials missing
  ///   while the simulator was not asked for, or the simulator asked for while credentials
  ///   are configured.
  func choice(config: String?, explicitSimulatorFor command: String? = nil) throws
    -> AppStoreChoice
  {
    let environment = ProcessInfo.processInfo.environment
    let choice: AppStoreChoice
    do {
      choice = try ToolConfiguration.resolve(file: config, environment: environment)
    } catch {
      throw ToolFailure.configuration("\(error)")
    }
    switch choice {
    case .apple:
      if simulatorRequested {
        throw ToolFailure.configuration(
          "\(simulated ? "--simulated" : "--world") asks for the built-in simulator, but App "
            + "Store credentials are configured (environment variables or "
            + "\(config ?? ToolConfiguration.defaultPath)), so this run would talk to Apple; "
            + "drop the flag, or unset the credentials to use the simulator")
      }
    case .embeddedSimulator:
      if let command, !simulatorRequested {
        throw ToolFailure.configuration(
          CredentialsMissing(command: command, file: config, environment: environment)
            .description)
      }
    }
    return choice
  }

  /// Chooses the App Store, connects to it and, when it is simulated, says so on standard error.
  ///
  /// - Parameters:
  ///   - config: the `--config` file, or `nil` for the default one.
  ///   - explicitSimulatorFor: a command that uses the simulator only when asked for.
  ///   - storePath: the store, beside which the embedded simulator keeps the tokens `link`
  ///     sets.
  ///   - rateShare: the share of Apple's per-app rate limits the client may use.
  func connectAndAnnounce(
    config: String?, explicitSimulatorFor command: String? = nil, storePath: String,
    rateShare: Double = 1
  ) throws -> AppStoreConnection {
    let connection = try connect(
      try choice(config: config, explicitSimulatorFor: command), storePath: storePath,
      rateShare: rateShare)
    connection.announce(requested: simulatorRequested)
    return connection
  }

  /// Where the embedded simulator keeps the tokens `link` sets, so that the simulated App
  /// Store holds them in later runs as Apple would: beside the store.
  static func tokenLogPath(storePath: String) -> String { "\(storePath).simulator-tokens" }

  /// Connects: builds Apple's client, or starts the embedded simulator and a client for it.
  ///
  /// - Parameters:
  ///   - choice: what ``choice(config:explicitSimulatorFor:)`` returned.
  ///   - storePath: the store, beside which the embedded simulator keeps its token changes.
  ///   - rateShare: the share of Apple's per-app rate limits the client may use.
  /// - Returns: the connection; stop it when done.
  func connect(_ choice: AppStoreChoice, storePath: String, rateShare: Double = 1) throws
    -> AppStoreConnection
  {
    switch choice {
    case .apple(let settings):
      let client: AppStoreServerAPIClient
      var configuration = settings.configuration
      configuration.rateLimits.share = rateShare
      do {
        client = try AppStoreServerAPIClient(
          configuration: configuration, isStopping: StopRequest.isRequestedInCurrentTask)
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
          identity: ConnectedAppStore.identity(of: settings.configuration),
          clock: settings.clock),
        embedded: nil, environment: settings.environment)
    case .embeddedSimulator:
      let embedded: EmbeddedAppStore
      do {
        embedded = try EmbeddedAppStore.start(
          worldDirectory: worldDirectory, now: WallClock.now,
          clock: try clock.map(InstantArgument.parse)
        ) { $0.tokenLogPath = Self.tokenLogPath(storePath: storePath) }
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
        client = try AppStoreServerAPIClient(
          configuration: configuration, isStopping: StopRequest.isRequestedInCurrentTask,
          notice: { _ in })
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
