import CryptoSupport

/// Writes the files of `simulator generate` into a folder one part of the world at a time (see
/// ``WorldGenerator/generate(accounts:seed:inPartsOf:_:)``), so a million-account world never
/// sits in memory: each part's customers, accounts, legacy records and expectations are
/// appended to the files as soon as the part is made. Written part by part or whole, a world's
/// files are the same bytes (but for the signatures of raw receipts).
///
/// Every file is written under a hidden temporary name and renamed into place by ``finish()``,
/// so an interrupted run leaves the folder's earlier files as they were.
public final class ArchiveWriter {
  private let directory: String
  private let world: ArchiveFile
  /// `world.json`'s accounts, written aside and joined after its customers by ``finish()``.
  private let worldAccounts: ArchiveFile
  private let receipts: ArchiveFile
  private let accounts: ArchiveFile
  private let products: ArchiveFile
  private let currentEntitlements: ArchiveFile
  private let expected: ArchiveFile
  private var first: World?
  private var chain: CertificateAuthorityChain?
  private var customersWritten = 0
  private var accountsWritten = 0

  /// Opens the files in `directory`, which must exist.
  ///
  /// - Parameter directory: the output folder.
  /// - Throws: ``ArchiveFileError`` when a file cannot be created.
  public init(directory: String) throws(ArchiveFileError) {
    typealias Name = GeneratedArchive.FileName
    self.directory = directory
    world = try ArchiveFile(Name.world, in: directory)
    worldAccounts = try ArchiveFile(Name.world + ".accounts", in: directory)
    receipts = try ArchiveFile(Name.receipts, in: directory)
    accounts = try ArchiveFile(Name.accounts, in: directory)
    products = try ArchiveFile(Name.products, in: directory)
    currentEntitlements = try ArchiveFile(Name.currentEntitlements, in: directory)
    expected = try ArchiveFile(Name.expected, in: directory)
  }

  /// Appends the next part of the world.
  ///
  /// - Parameter part: the part, its customers numbered from its ``World/identifierBase``, which
  ///   must continue where the previous part's customers ended.
  /// - Returns: the expectations of the part's accounts.
  /// - Throws: when a file cannot be written or the signing material cannot be prepared.
  public func append(_ part: World) throws -> [ExpectedCategoryOracle.Expectation] {
    let archive = GeneratedArchive(world: part)
    let chain = try start(with: part)
    let offset = part.identifierBase - (first?.identifierBase ?? part.identifierBase)
    precondition(offset == customersWritten, "parts must follow each other")
    let evaluated = ExpectedCategoryOracle(world: part).evaluate()
    let expectations = evaluated.map(\.expectation)
    for customer in part.customers {
      try world.write(
        WorldEncoder.element(customer, offset: offset, isFirst: customersWritten == 0))
      customersWritten += 1
    }
    for account in part.accounts {
      try worldAccounts.write(
        WorldEncoder.element(account, offset: offset, isFirst: accountsWritten == 0))
      accountsWritten += 1
    }
    try receipts.write(archive.receipts(evaluated.map(\.responses), chain: chain))
    try accounts.write(archive.accountLinks())
    try currentEntitlements.write(archive.currentEntitlements(expectations))
    try expected.write(archive.expected(expectations))
    return expectations
  }

  /// Completes `world.json` and moves every file into place.
  ///
  /// - Throws: when a file cannot be written; nothing is moved into place then but what was
  ///   complete before the failure.
  public func finish() throws(ArchiveFileError) {
    try world.write(WorldEncoder.middle(hasCustomers: customersWritten > 0))
    try world.append(contentsOf: worldAccounts)
    try world.write(WorldEncoder.closing(hasAccounts: accountsWritten > 0))
    for file in [world, receipts, accounts, products, currentEntitlements, expected] {
      try file.commit()
    }
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
    try world.write(WorldEncoder.opening(part))
    try accounts.write(GeneratedArchive.Header.accounts)
    try products.write(GeneratedArchive(world: part).products())
    try currentEntitlements.write(GeneratedArchive.Header.currentEntitlements)
    try expected.write(GeneratedArchive.Header.expected)
    return made
  }
}
