import CryptoSupport
import Dispatch

/// Writes the files of `simulator generate` into a folder one part of the world at a time (see
/// ``WorldGenerator/generate(accounts:seed:inPartsOf:_:)``), so a million-account world never
/// sits in memory: each part's customers, accounts, legacy records and expectations are
/// rendered on every core and appended to the files while the next part is made. Written part
/// by part or whole, a world's files are the same bytes (but for the signatures of raw
/// receipts).
///
/// Every file is written under a hidden temporary name and renamed into place by ``finish()``,
/// so an interrupted run leaves the folder's earlier files as they were.
public final class ArchiveWriter {
  private let directory: String
  private let files: ArchiveFiles
  /// Writes the rendered parts in order, one behind the rendering, so the disk and the CPU
  /// work at the same time; at most one rendered part waits.
  private let writes = DispatchQueue(label: "receipt-migrate.archive-writer")
  private let pending = DispatchGroup()
  private var first: World?
  private var chain: CertificateAuthorityChain?
  private var customersWritten = 0
  private var accountsWritten = 0

  /// Opens the files in `directory`, which must exist.
  ///
  /// - Parameter directory: the output folder.
  /// - Throws: ``ArchiveFileError`` when a file cannot be created.
  public init(directory: String) throws(ArchiveFileError) {
    self.directory = directory
    files = try ArchiveFiles(directory: directory)
  }

  /// Appends the next part of the world.
  ///
  /// - Parameter part: the part, its customers numbered from its ``World/identifierBase``, which
  ///   must continue where the previous part's customers ended.
  /// - Returns: the expectations of the part's accounts.
  /// - Throws: when a file cannot be written or the signing material cannot be prepared.
  public func append(_ part: World) throws -> [ExpectedCategoryOracle.Expectation] {
    let chain = try start(with: part)
    let offset = part.identifierBase - (first?.identifierBase ?? part.identifierBase)
    precondition(offset == customersWritten, "parts must follow each other")
    let rendered = try RenderedPart(
      part, offset: offset, firstCustomers: customersWritten == 0,
      firstAccounts: accountsWritten == 0, chain: chain)
    customersWritten += part.customers.count
    accountsWritten += part.accounts.count
    try waitForWrites()
    let files = files
    writes.async(group: pending) { files.appendOnce(rendered) }
    return rendered.expectations
  }

  /// Completes `world.json` and moves every file into place.
  ///
  /// - Throws: when a file cannot be written; nothing is moved into place then but what was
  ///   complete before the failure.
  public func finish() throws(ArchiveFileError) {
    try waitForWrites()
    try files.finish(hasCustomers: customersWritten > 0, hasAccounts: accountsWritten > 0)
  }

  private func waitForWrites() throws(ArchiveFileError) {
    pending.wait()
    if let failure = files.failure { throw failure }
  }

  /// The first part opens `world.json` and `products.csv` and prepares the signing chain the
  /// raw receipts are signed with, kept beside the world.
  private func start(with part: World) throws -> CertificateAuthorityChain {
    if let chain { return chain }
    first = part
    let made = try SimulatorSetup.signingMaterial(
      worldDirectory: directory, now: part.now, bundleId: part.bundleId
    ).chain
    chain = made
    try files.start(
      opening: WorldEncoder.opening(part), products: GeneratedArchive(world: part).products())
    return made
  }

  deinit {
    pending.wait()
  }
}
