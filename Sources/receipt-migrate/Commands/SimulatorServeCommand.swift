import AppStoreServerAPI
import AppStoreSimulator
import ArgumentParsing
import CryptoSupport
import Dispatch
import Foundation
import Glibc

/// `receipt-migrate simulator serve`.
struct SimulatorServeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Answer the App Store Server API for a generated world on two loopback ports.",
    discussion: """
      Production and sandbox listen on their own ports, as Apple's two hosts. Signed values are \
      signed with the chain in <world>/signing/ (created on first use, with a test API key); \
      clients trust signing/root.pem and sign with signing/api-key.p8. Stop with Ctrl-C.

      --faults: comma-separated [ENDPOINT:]KIND=RATE, KIND one of 5000000 (or 500), 5000001, \
      4040002, 4040004, 4040006, drop, truncate, malformed, bad-signature, retry-after, \
      refused-revision, extreme-signed-date; RATE 0.05 or 5%. --fault-retry-after: how far \
      ahead the retry-after fault's Retry-After lies (default 24h). \
      --latency: comma-separated [ENDPOINT:]DIST, DIST 20ms, 20ms±5ms (or 20ms+-5ms, uniform) \
      or 20ms~5ms (normal). ENDPOINT: history, status, transaction, refund, order, \
      app-transaction, notifications, app-account-token, test-notification, test-status. \
      --rate-limit: off, or items among per-second, hourly, hourly-rolling, ENDPOINT=RATE, \
      sandbox:ENDPOINT=RATE, sandbox-share=F. --notification-url: v2 (the default), v1 (the \
      history lists nothing) or none (a test notification is refused with 4040007, the history \
      lists nothing), or production=… and sandbox=… apart. See Documentation/Simulator.md.
      """
  )

  @Option(help: ArgumentHelp("A directory written by simulator generate.", valueName: "dir"))
  var world: String

  @Option(help: "The production port; 0 picks a free one.")
  var port: Int = 0

  @Option(help: "The sandbox port; 0 picks a free one.")
  var sandboxPort: Int = 0

  @Option(help: ArgumentHelp("Added latency, such as 20ms±5ms.", valueName: "spec"))
  var latency: String?

  @Option(help: ArgumentHelp("Faults to act out, such as history:drop=0.05.", valueName: "spec"))
  var faults: String?

  @Option(
    help: ArgumentHelp(
      "How far after the wall clock the retry-after fault's Retry-After lies (default 24h).",
      valueName: "duration"))
  var faultRetryAfter: String?

  @Option(
    help: ArgumentHelp("Rate limits: off, or a spec; Apple's limits by default.", valueName: "spec")
  )
  var rateLimit: String?

  @Option(
    help: ArgumentHelp(
      "The notification URL the app configured: v2, v1 or none, or production=…,sandbox=….",
      valueName: "spec"))
  var notificationUrl: String?

  @Option(
    help: ArgumentHelp(
      "The share of notifications the history leaves out (a feed that drops some).",
      valueName: "rate"))
  var notificationOmission: Double = 0

  @Option(help: "The seed faults and latencies are drawn with.")
  var seed: UInt64 = 1

  @Option(help: ArgumentHelp("Which requests to log: all, errors or off.", valueName: "mode"))
  var log: String = "all"

  @Option(
    help: ArgumentHelp(
      "The App Store's clock: answer as Apple would at this instant (default: the world's "
        + "clock; up to the end of a timeline generated with --days-after).", valueName: "instant"))
  var clock: String?

  @Option(
    help: ArgumentHelp(
      "Keep the app account tokens Set App Account Token sets in this file, so that the world "
        + "served again (at the same clock or a later one) still holds them, as Apple does "
        + "(default: they last as long as the server).", valueName: "file"))
  var tokenLog: String?

  mutating func validate() throws {
    for (name, value) in [("--port", port), ("--sandbox-port", sandboxPort)]
    where !(0...65535).contains(value) {
      throw ValidationError("\(name) must be between 0 and 65535")
    }
    guard ["all", "errors", "off"].contains(log) else {
      throw ValidationError("--log must be all, errors or off")
    }
    if let clock { _ = try InstantArgument.parse(clock) }
    if let faultRetryAfter {
      _ = try DurationArgument.milliseconds(faultRetryAfter, flag: "--fault-retry-after")
    }
  }

  func run() async throws {
    let setup: SimulatorSetup
    var configuration: SimulatorConfiguration
    do {
      // Absolute paths in the banner work for clients started from any directory. The world is
      // read customer by customer as requests ask, so its size is bounded by the disk.
      setup = try SimulatorSetup.prepareToServe(
        worldDirectory: URL(fileURLWithPath: world).standardizedFileURL.path)
      configuration = setup.configuration(now: WallClock.now)
      configuration.faults = try FaultPlan.parse(faults: faults, latency: latency)
      if let faultRetryAfter {
        configuration.faults.retryAfterDelay = try DurationArgument.milliseconds(
          faultRetryAfter, flag: "--fault-retry-after")
      }
      if let rateLimit { configuration.rateLimits = try SimulatorRateLimits.parse(rateLimit) }
      if let notificationUrl {
        configuration.notificationURLs = try NotificationURL.parse(notificationUrl)
      }
      configuration.notificationOmissionRate = notificationOmission
    } catch let error as SimulatorSpecificationError {
      throw ValidationError(error.message)
    } catch {
      throw ToolFailure.configuration("\(error)")
    }
    configuration.clock = try clock.map(InstantArgument.parse)
    configuration.productionPort = port
    configuration.sandboxPort = sandboxPort
    configuration.seed = seed
    configuration.tokenLogPath = tokenLog
    let mode = log
    configuration.requestLog = { entry in
      let isError = (entry.status ?? 500) >= 400 || entry.fault != nil
      if mode == "all" || (mode == "errors" && isError) { Self.emit(entry.description) }
    }
    let server: SimulatorServer
    do {
      server = try SimulatorServer.start(configuration: configuration)
    } catch {
      throw ToolFailure.configuration(error.message)
    }
    Self.emit(banner(setup: setup, server: server, configuration: configuration))
    let signal = await Self.waitForTermination()
    Self.emit("Received \(signal); stopping.")
    server.stop()
    Self.emit(summary(server.statistics()))
  }

  private func banner(
    setup: SimulatorSetup, server: SimulatorServer, configuration: SimulatorConfiguration
  ) -> String {
    let world = setup.world
    let rate = configuration.rateLimits.requestsPerSecond(for: .transactionHistory, in: .production)
    let limits =
      configuration.rateLimits.isEnabled
      ? "\(configuration.rateLimits.mode), history \(rate.formatted(.number))/s in production"
      : "off"
    return """
      Simulated App Store for \(setup.worldDirectory): \(setup.worldFile?.customerCount ?? world.customers.count) customers, \
      world clock \(world.now), serving at \(configuration.effectiveClock)\(setup.createdSigningMaterial ? " (signing material created)" : "")
        production   \(server.productionURL.absoluteString)
        sandbox      \(server.sandboxURL.absoluteString)
        root         \(setup.rootCertificatePath)
        private key  \(setup.privateKeyPath)
        issuer id    \(setup.testKey.issuerId)
        key id       \(setup.testKey.keyId)
        bundle id    \(world.bundleId)
        app apple id \(world.appAppleId)
        rate limits  \(limits)
        faults       \(faults ?? "none"); latency \(latency ?? "none")
        token log    \(tokenLog ?? "none (tokens set last as long as the server)")
      For clients:
        export APP_STORE_PRODUCTION_URL=\(server.productionURL.absoluteString) \
      APP_STORE_SANDBOX_URL=\(server.sandboxURL.absoluteString) \
      APP_STORE_ROOT_CERTIFICATES=\(setup.rootCertificatePath) \
      ASC_ISSUER_ID=\(setup.testKey.issuerId) ASC_KEY_ID=\(setup.testKey.keyId) \
      ASC_PRIVATE_KEY_PATH=\(setup.privateKeyPath) APP_BUNDLE_ID=\(world.bundleId) \
      APP_APPLE_ID=\(world.appAppleId) APP_STORE_CLOCK=\(configuration.effectiveClock.iso8601)
      Serving; stop with Ctrl-C.
      """
  }

  private func summary(_ statistics: SimulatorStatistics) -> String {
    var lines = ["Answered \(statistics.totalRequests) requests."]
    let keys = statistics.endpoints.keys.sorted {
      ($0.environment.rawValue, $0.endpoint?.rawValue ?? "") < (
        $1.environment.rawValue, $1.endpoint?.rawValue ?? ""
      )
    }
    for key in keys {
      guard let counters = statistics.endpoints[key] else { continue }
      let statuses = counters.statuses.keys.sorted().map { "\($0)×\(counters.statuses[$0] ?? 0)" }
      lines.append(
        "  \(key.environment.rawValue) \(key.endpoint?.rawValue ?? "unknown path"): "
          + "\(counters.requests) (\(statuses.joined(separator: ", ")))")
    }
    return lines.joined(separator: "\n")
  }

  /// Writes a line to standard output at once: the banner must reach a pipe before any request
  /// arrives, and log lines from connection threads must not interleave.
  private static func emit(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }

  /// Waits for SIGINT or SIGTERM and returns its name.
  private static func waitForTermination() async -> String {
    let queue = DispatchQueue(label: "simulator-serve-signals")
    return await withCheckedContinuation { continuation in
      let sources = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")].map { number, name in
        // The default action would end the process before the server can stop cleanly.
        Glibc.signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
        return (source, name)
      }
      // Both handlers run on the one serial queue, so this flag is only touched there.
      var resumed = false
      for (source, name) in sources {
        source.setEventHandler {
          guard !resumed else { return }
          resumed = true
          for (other, _) in sources { other.cancel() }
          continuation.resume(returning: name)
        }
        source.resume()
      }
    }
  }
}
