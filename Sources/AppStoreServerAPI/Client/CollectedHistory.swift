/// A customer's whole transaction history, merged across pages.
public struct CollectedHistory: Sendable, Hashable {
  /// The transactions, merged by id (newest `signedDate` kept), in first-seen order.
  public var transactions: [Verified<JWSTransaction>]
  /// The revision of the last page: store it after an unfiltered ascending walk.
  public var revision: String?
  /// How many pages were fetched.
  public var pageCount: Int

  /// A history from its parts.
  ///
  /// - Parameters:
  ///   - transactions: The merged transactions.
  ///   - revision: The last page's revision.
  ///   - pageCount: The number of pages.
  public init(transactions: [Verified<JWSTransaction>], revision: String?, pageCount: Int) {
    self.transactions = transactions
    self.revision = revision
    self.pageCount = pageCount
  }
}
