import CryptoSupport
import Dispatch
import Synchronization

/// One part of a world rendered into the bytes each generated file gains from it, on every core:
/// the oracle evaluates the accounts in parallel, then chunks of customers and accounts are
/// encoded in parallel, each chunk's bytes joined in order.
struct RenderedPart: Sendable {
  /// The expectations of the part's accounts, in order.
  var expectations: [ExpectedCategoryOracle.Expectation]
  /// The bytes, chunk by chunk in order (kept apart: joining them would copy every byte once
  /// more).
  var chunks: [Chunk] = []

  /// What one chunk of customers and accounts adds to each file.
  struct Chunk: Sendable {
    /// `world.json`'s customer lines.
    var worldCustomers: [UInt8] = []
    /// `world.json`'s account lines (written aside, joined after the customers at the end).
    var worldAccounts: [UInt8] = []
    /// `receipts.ndjson`'s records.
    var receipts: [UInt8] = []
    /// `accounts.csv`'s lines.
    var accountLinks: [UInt8] = []
    /// `current-entitlements.csv`'s lines.
    var currentEntitlements: [UInt8] = []
    /// `expected.csv`'s lines.
    var expected: [UInt8] = []
  }

  private static let chunkSize = 256

  /// Renders a part.
  ///
  /// - Parameters:
  ///   - part: the part.
  ///   - offset: how many customers earlier parts held (their positions move on by it).
  ///   - firstCustomers: whether no customer was written before (no separator then).
  ///   - firstAccounts: whether no account was written before.
  ///   - chain: the chain raw receipts are signed with.
  /// - Throws: when a raw receipt cannot be signed.
  init(
    _ part: World, offset: Int, firstCustomers: Bool, firstAccounts: Bool,
    chain: CertificateAuthorityChain
  ) throws {
    let evaluated = ExpectedCategoryOracle(world: part).evaluate()
    expectations = evaluated.map(\.expectation)
    let responses = evaluated.map(\.responses)
    let expectations = expectations
    let archive = GeneratedArchive(world: part)
    let size = Self.chunkSize
    let chunks = (max(part.customers.count, part.accounts.count) + size - 1) / size
    let rendered = Mutex<[Result<Chunk, any Error>?]>(Array(repeating: nil, count: chunks))
    DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
      let customers =
        min(
          part.customers.count, chunk * size)..<min(
          part.customers.count, (chunk + 1) * size)
      let accounts =
        min(
          part.accounts.count, chunk * size)..<min(
          part.accounts.count, (chunk + 1) * size)
      let result = Result { () throws -> Chunk in
        var piece = Chunk()
        for position in customers {
          piece.worldCustomers += WorldEncoder.element(
            part.customers[position], offset: offset, isFirst: firstCustomers && position == 0)
        }
        for position in accounts {
          piece.worldAccounts += WorldEncoder.element(
            part.accounts[position], offset: offset, isFirst: firstAccounts && position == 0)
        }
        piece.receipts = try archive.receipts(
          accounts, responses: responses[accounts], chain: chain)
        piece.accountLinks = Array(archive.accountLinks(accounts).utf8)
        piece.currentEntitlements = Array(
          archive.currentEntitlements(expectations[accounts]).utf8)
        piece.expected = Array(archive.expected(expectations[accounts]).utf8)
        return piece
      }
      rendered.withLock { $0[chunk] = result }
    }
    self.chunks = try rendered.withLock { $0 }.compactMap { try $0?.get() }
  }
}
