import Chronology
import CryptoSupport
import Foundation

/// A world directory made ready to serve: its `world.json` read, and its signing material —
/// the root → intermediate → leaf chain and a test API key — loaded from `<world>/signing/`, or
/// created there the first time.
///
/// `simulator serve` and the embedded default both start from here, so a client started
/// separately finds `signing/root.pem` (to trust) and `signing/api-key.p8` (to sign with).
/// Generating the chain draws on OpenSSL's randomness, so it differs between directories; the
/// world's data files do not.
public struct SimulatorSetup: Sendable {
  /// The folder inside the world directory that holds the signing material.
  public static let signingDirectoryName = "signing"

  /// How long before the world's clock the signing chain must be valid: notifications are
  /// signed at their event dates, up to 180 days back.
  static let requiredValidityBefore = 200 * Timestamp.millisecondsPerDay

  /// The world directory.
  public let worldDirectory: String
  /// The world read from `world.json` — with ``worldFile``, only its header (clock, app,
  /// products).
  public let world: World
  /// `world.json` opened to be read customer by customer as requests ask, when the setup was
  /// made by ``prepareToServe(worldDirectory:)``.
  public let worldFile: WorldFile?
  /// The signing chain.
  public let chain: CertificateAuthorityChain
  /// The API key clients sign with.
  public let testKey: SimulatorTestKey
  /// Whether this call created the signing material (otherwise it was loaded).
  public let createdSigningMaterial: Bool

  /// `<world>/signing`.
  public var signingDirectory: String { "\(worldDirectory)/\(Self.signingDirectoryName)" }

  /// The root certificate clients must trust (`--root`, `APP_STORE_ROOT_CERTIFICATES`).
  public var rootCertificatePath: String {
    "\(signingDirectory)/\(CertificateAuthorityChain.fileNames.rootCertificate)"
  }

  /// The private key clients sign request tokens with (`ASC_PRIVATE_KEY_PATH`).
  public var privateKeyPath: String {
    "\(signingDirectory)/\(SimulatorTestKey.privateKeyFileName)"
  }

  /// Reads the world and loads or creates the signing material.
  ///
  /// - Parameter worldDirectory: a directory written by `simulator generate`.
  /// - Returns: the setup.
  /// - Throws: `SimulatorSetupError` when `world.json` is missing or unreadable, or the signing
  ///   material is damaged or does not cover the world's clock.
  public static func prepare(worldDirectory: String) throws(SimulatorSetupError)
    -> SimulatorSetup
  {
    let worldPath = try existingWorldPath(in: worldDirectory)
    let world: World
    do {
      world = try WorldDecoder.decode(try SimulatorSetupError.reading(worldPath))
    } catch let error as SimulatorSetupError {
      throw error
    } catch {
      throw SimulatorSetupError("\(worldPath) cannot be read: \(error)")
    }
    let material = try signingMaterial(
      worldDirectory: worldDirectory, now: world.now, bundleId: world.bundleId)
    return SimulatorSetup(
      worldDirectory: worldDirectory, world: world, worldFile: nil, chain: material.chain,
      testKey: material.key, createdSigningMaterial: material.created)
  }

  /// Opens the world to be served without holding it (see ``WorldFile``: a few bytes per
  /// customer stay in memory; each customer is read back as requests ask) and loads or creates
  /// the signing material. What `simulator serve` uses, so a million-account world fits.
  ///
  /// - Parameter worldDirectory: a directory written by `simulator generate`.
  /// - Returns: the setup, its ``world`` holding the header only.
  /// - Throws: `SimulatorSetupError` when `world.json` is missing or invalid, or the signing
  ///   material is damaged or does not cover the world's clock.
  public static func prepareToServe(worldDirectory: String) throws(SimulatorSetupError)
    -> SimulatorSetup
  {
    let worldPath = try existingWorldPath(in: worldDirectory)
    let file: WorldFile
    do {
      file = try WorldFile(path: worldPath)
    } catch {
      throw SimulatorSetupError(error.description)
    }
    let material = try signingMaterial(
      worldDirectory: worldDirectory, now: file.header.now, bundleId: file.header.bundleId)
    return SimulatorSetup(
      worldDirectory: worldDirectory, world: file.header, worldFile: file, chain: material.chain,
      testKey: material.key, createdSigningMaterial: material.created)
  }

  private static func existingWorldPath(in worldDirectory: String) throws(SimulatorSetupError)
    -> String
  {
    let worldPath = "\(worldDirectory)/\(GeneratedArchive.FileName.world)"
    guard FileManager.default.fileExists(atPath: worldPath) else {
      throw SimulatorSetupError(
        "\(worldPath) does not exist; make a world with receipt-migrate simulator generate "
          + "--out \(worldDirectory)")
    }
    return worldPath
  }

  /// Loads the signing material of a world directory, or creates it there the first time,
  /// without reading `world.json` (which `simulator generate` writes only after it has signed
  /// the raw receipts with this chain).
  ///
  /// - Parameters:
  ///   - worldDirectory: the world directory.
  ///   - now: the world's clock, which the chain must cover.
  ///   - bundleId: the app's bundle id, for the test API key.
  /// - Returns: the chain, the key, and whether this call created them.
  /// - Throws: `SimulatorSetupError` when the material is damaged, does not cover the clock,
  ///   or cannot be written.
  public static func signingMaterial(worldDirectory: String, now: Timestamp, bundleId: String)
    throws(SimulatorSetupError) -> (
      chain: CertificateAuthorityChain, key: SimulatorTestKey, created: Bool
    )
  {
    let signing = "\(worldDirectory)/\(signingDirectoryName)"
    let rootPath = "\(signing)/\(CertificateAuthorityChain.fileNames.rootCertificate)"
    if FileManager.default.fileExists(atPath: rootPath) {
      let chain: CertificateAuthorityChain
      do {
        chain = try CertificateAuthorityChain.load(fromDirectory: signing)
      } catch {
        throw SimulatorSetupError(
          "the signing chain in \(signing) cannot be loaded: \(error.message); delete \(signing) "
            + "to make a new one")
      }
      try checkValidity(of: chain, covers: now, directory: signing)
      let key = try SimulatorTestKey.load(fromDirectory: signing, bundleId: bundleId)
      return (chain, key, false)
    }
    do {
      try FileManager.default.createDirectory(
        atPath: signing, withIntermediateDirectories: true)
    } catch {
      throw SimulatorSetupError(
        "cannot create \(signing): \(error.localizedDescription); check that \(worldDirectory) "
          + "is writable")
    }
    let chain: CertificateAuthorityChain
    let key: SimulatorTestKey
    do {
      chain = try makeChain(covering: now)
      try chain.write(toDirectory: signing)
      key = try SimulatorTestKey.generate(bundleId: bundleId)
    } catch {
      throw SimulatorSetupError(
        "cannot create the simulator's signing material in \(signing): \(error.message)")
    }
    try key.write(toDirectory: signing)
    return (chain, key, true)
  }

  /// A chain with Apple's two OIDs, valid from five years before the world's clock to twenty
  /// years after it.
  ///
  /// - Parameter now: the world's clock.
  /// - Returns: a new chain.
  /// - Throws: `CryptoError` if OpenSSL cannot make it.
  public static func makeChain(covering now: Timestamp) throws(CryptoError)
    -> CertificateAuthorityChain
  {
    let year = 365 * Timestamp.millisecondsPerDay
    return try CertificateAuthorityChain.generate(
      .appStoreLike(
        notBefore: now.millisecondsSince1970 - 5 * year,
        notAfter: now.millisecondsSince1970 + 20 * year))
  }

  /// A configuration serving this world with this chain and key.
  ///
  /// - Parameter now: the wall clock for token expiry and rate limits.
  /// - Returns: the configuration, with every other setting at its default.
  public func configuration(now: @escaping @Sendable () -> Timestamp) -> SimulatorConfiguration {
    if let worldFile {
      return SimulatorConfiguration(
        worldFile: worldFile, signingChain: chain, apiKey: testKey.apiKey, now: now)
    }
    return SimulatorConfiguration(
      world: world, signingChain: chain, apiKey: testKey.apiKey, now: now)
  }

  private static func checkValidity(
    of chain: CertificateAuthorityChain, covers now: Timestamp, directory: String
  ) throws(SimulatorSetupError) {
    let from = now.millisecondsSince1970 - requiredValidityBefore
    let to = now.millisecondsSince1970 + Timestamp.millisecondsPerDay
    for certificate in [chain.root, chain.intermediate, chain.leaf].map(\.certificate)
    where certificate.notBefore > from || certificate.notAfter < to {
      throw SimulatorSetupError(
        "the certificate \"\(certificate.subject)\" in \(directory) is not valid around the "
          + "world's clock (\(now)); delete \(directory) to make a chain that covers it")
    }
  }
}
