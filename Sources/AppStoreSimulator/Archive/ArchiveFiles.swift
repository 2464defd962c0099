/// The files of a generated archive while they are written.
///
/// Unchecked `Sendable`: one thread at a time touches them — the caller before the first part
/// is handed to ``ArchiveWriter``'s write queue and after it waits for that queue, the queue in
/// between — and the queue's group orders those turns.
final class ArchiveFiles: @unchecked Sendable {
  private let world: ArchiveFile
  /// `world.json`'s accounts, written aside and joined after its customers at the end.
  private let worldAccounts: ArchiveFile
  private let receipts: ArchiveFile
  private let accounts: ArchiveFile
  private let products: ArchiveFile
  private let currentEntitlements: ArchiveFile
  private let expected: ArchiveFile
  /// The first failure of ``appendOnce(_:)``; nothing more is written after it.
  private(set) var failure: ArchiveFileError?

  init(directory: String) throws(ArchiveFileError) {
    typealias Name = GeneratedArchive.FileName
    world = try ArchiveFile(Name.world, in: directory)
    worldAccounts = try ArchiveFile(Name.world + ".accounts", in: directory)
    receipts = try ArchiveFile(Name.receipts, in: directory)
    accounts = try ArchiveFile(Name.accounts, in: directory)
    products = try ArchiveFile(Name.products, in: directory)
    currentEntitlements = try ArchiveFile(Name.currentEntitlements, in: directory)
    expected = try ArchiveFile(Name.expected, in: directory)
  }

  /// Writes what comes before the first part: `world.json`'s opening, the CSV headers and the
  /// catalogue.
  func start(opening: [UInt8], products catalogue: String) throws(ArchiveFileError) {
    typealias Header = GeneratedArchive.Header
    try world.write(opening)
    try accounts.write(Header.accounts)
    try products.write(catalogue)
    try currentEntitlements.write(Header.currentEntitlements)
    try expected.write(Header.expected)
  }

  /// Appends one rendered part to every file.
  func append(_ part: RenderedPart) throws(ArchiveFileError) {
    for chunk in part.chunks {
      try world.write(chunk.worldCustomers)
      try worldAccounts.write(chunk.worldAccounts)
      try receipts.write(chunk.receipts)
      try accounts.write(chunk.accountLinks)
      try currentEntitlements.write(chunk.currentEntitlements)
      try expected.write(chunk.expected)
    }
  }

  /// Appends one rendered part unless an earlier append failed, keeping the first failure.
  func appendOnce(_ part: RenderedPart) {
    guard failure == nil else { return }
    do { try append(part) } catch { failure = error }
  }

  /// Completes `world.json` and renames every file into place.
  func finish(hasCustomers: Bool, hasAccounts: Bool) throws(ArchiveFileError) {
    try world.write(WorldEncoder.middle(hasCustomers: hasCustomers))
    try world.append(contentsOf: worldAccounts)
    try world.write(WorldEncoder.closing(hasAccounts: hasAccounts))
    for file in [world, receipts, accounts, products, currentEntitlements, expected] {
      try file.commit()
    }
  }
}
