/// The pages of a customer's transaction history, fetched one at a time as the caller asks.
///
/// A page is requested only when the loop asks for it, so the caller can store each page and
/// checkpoint its `revision` before the next request is made:
///
/// ```swift
/// for try await page in client.historyPages(id, environment: .production) {
///   try store.save(page.transactions)
///   try store.checkpoint(revision: page.revision)
/// }
/// ```
///
/// Every page after the first sends the previous page's `revision` with exactly the same filters.
public struct HistoryPages: AsyncSequence, Sendable {
  /// A page.
  public typealias Element = HistoryResponse
  /// The error a page request ends with.
  public typealias Failure = AppStoreAPIError

  let client: AppStoreServerAPIClient
  let transactionId: String
  let query: HistoryQuery
  let revision: String?
  let environment: AppStoreEnvironment

  /// The iterator.
  ///
  /// - Returns: An iterator that starts at the configured revision.
  public func makeAsyncIterator() -> Iterator {
    Iterator(pages: self, revision: revision)
  }

  /// Fetches the next page on each call to ``next()``.
  public struct Iterator: AsyncIteratorProtocol {
    /// A page.
    public typealias Element = HistoryResponse
    /// The error a page request ends with.
    public typealias Failure = AppStoreAPIError

    let pages: HistoryPages
    var revision: String?
    var isFinished = false

    /// Requests the next page, or returns `nil` after the page with `hasMore == false`.
    ///
    /// - Returns: The page, or `nil` when the history is complete.
    /// - Throws: ``AppStoreAPIError`` for a failed request, or when the server claims more pages
    ///   without a new revision (which would loop forever).
    public mutating func next() async throws(AppStoreAPIError) -> HistoryResponse? {
      guard !isFinished else { return nil }
      let page = try await pages.client.transactionHistory(
        pages.transactionId, query: pages.query, revision: revision,
        environment: pages.environment)
      guard page.hasMore else {
        isFinished = true
        return page
      }
      guard let next = page.revision, next != revision else {
        isFinished = true
        throw AppStoreAPIError(
          .malformedResponse(
            status: 200, reason: "hasMore is true but the revision did not advance"),
          endpoint: .transactionHistory, environment: pages.environment,
          requestedId: pages.transactionId)
      }
      revision = next
      return page
    }
  }
}
