import AppStoreServerAPI
import Chronology
import CryptoSupport
import Foundation

/// The embedded default: the simulator started in-process on loopback ports, seeded from a
/// world directory (`Legacy/sample/` unless told otherwise), and a client configuration that
/// talks to it exactly as to Apple — the same JWT, the same JWS verification (against the
/// world's own root), the same rate limits, retries and environment fallback.
///
/// ```swift
/// let embedded = try EmbeddedAppStore.start(worldDirectory: "Legacy/sample", now: clock)
/// defer { embedded.stop() }
/// let client = try AppStoreServerAPIClient(configuration: embedded.clientConfiguration)
/// ```
public final class EmbeddedAppStore: Sendable {
  /// The world directory, its world and its signing material.
  public let setup: SimulatorSetup
  /// The running server.
  public let server: SimulatorServer
  /// A client configuration for this server: the world's test key, its root, its app.
  public let clientConfiguration: ClientConfiguration
  /// The first 16 hexadecimal digits of the SHA-256 of `world.json`: which world this is, so
  /// that a store never mixes two worlds' answers.
  public let worldFingerprint: String

  private init(
    setup: SimulatorSetup, server: SimulatorServer, clientConfiguration: ClientConfiguration,
    worldFingerprint: String
  ) {
    self.setup = setup
    self.server = server
    self.clientConfiguration = clientConfiguration
    self.worldFingerprint = worldFingerprint
  }

  /// Reads a world directory and starts the simulator for it.
  ///
  /// - Parameters:
  ///   - worldDirectory: a directory written by `simulator generate`.
  ///   - now: the wall clock for request tokens and rate limits (signed data carries the
  ///     App Store's clock).
  ///   - clock: the App Store's clock, up to the end of the world's timeline; `nil` for the
  ///     world's own clock.
  ///   - configure: changes to the server's settings (faults, latency, limits), for tests and
  ///     benchmarks; none by default.
  /// - Returns: the running App Store; call ``stop()`` when done.
  /// - Throws: `SimulatorSetupError` for a missing or damaged world, `SimulatorStartError`
  ///   when the server cannot start.
  public static func start(
    worldDirectory: String, now: @escaping @Sendable () -> Timestamp, clock: Timestamp? = nil,
    configure: (inout SimulatorConfiguration) -> Void = { _ in }
  ) throws -> EmbeddedAppStore {
    let setup = try SimulatorSetup.prepare(worldDirectory: worldDirectory)
    var configuration = setup.configuration(now: now)
    configuration.clock = clock
    configure(&configuration)
    let server = try SimulatorServer.start(configuration: configuration)
    let worldBytes =
      FileManager.default.contents(
        atPath: "\(worldDirectory)/\(GeneratedArchive.FileName.world)") ?? Data()
    return EmbeddedAppStore(
      setup: setup, server: server,
      clientConfiguration: ClientConfiguration(
        credentials: setup.testKey.credentials, trustedRoots: [setup.chain.root.certificate],
        appAppleId: setup.world.appAppleId, baseURLOverrides: server.baseURLOverrides),
      worldFingerprint: String(SHA256.hexDigest(worldBytes).prefix(16)))
  }

  /// Stops the server.
  public func stop() {
    server.stop()
  }

  /// `simulated App Store (world Legacy/sample, seed 4, 300 accounts)`: how reports name it.
  public var description: String {
    let world = setup.world
    return
      "simulated App Store (world \(setup.worldDirectory), seed \(world.seed), "
      + "\(world.accounts.count) accounts)"
  }

  /// The App Store's clock: the instant every answer describes.
  public var clock: Timestamp { server.configuration.effectiveClock }

  /// The identity a store remembers: `simulator <world fingerprint>`. The clock is not part of
  /// it: one world served night after night is one App Store.
  public var identity: String { "simulator \(worldFingerprint)" }

  /// A file of the world directory, such as `GeneratedArchive.FileName.receipts`.
  ///
  /// - Parameter name: the file's name.
  /// - Returns: its path.
  public func file(_ name: String) -> String { "\(setup.worldDirectory)/\(name)" }
}
