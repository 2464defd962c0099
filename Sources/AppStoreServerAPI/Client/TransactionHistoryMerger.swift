/// Merges history pages by `transactionId`, keeping for each the version with the newest
/// `signedDate`: in ascending order a transaction updated during the walk comes back on a later
/// page with new data, and must replace, not duplicate, the old one.
public struct TransactionHistoryMerger: Sendable {
  private var positions: [String: Int] = [:]

  /// The merged transactions, in the order each was first seen.
  public private(set) var transactions: [Verified<JWSTransaction>] = []

  /// How many transactions were replaced by a newer version.
  public private(set) var replacedCount = 0

  /// An empty merger.
  public init() {}

  /// Adds a page's transactions.
  ///
  /// - Parameter page: Verified transactions; ones without a `transactionId` are kept as they are.
  public mutating func add(_ page: [Verified<JWSTransaction>]) {
    for transaction in page {
      guard let id = transaction.payload.transactionId else {
        transactions.append(transaction)
        continue
      }
      guard let position = positions[id] else {
        positions[id] = transactions.count
        transactions.append(transaction)
        continue
      }
      let kept = transactions[position].payload.signedDate ?? .distantPast
      if (transaction.payload.signedDate ?? .distantPast) >= kept {
        transactions[position] = transaction
        replacedCount += 1
      }
    }
  }
}
