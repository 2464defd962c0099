import AppStoreServerAPI
import Chronology
import Entitlements

/// One customer as the App Store holds it now, asked just before `link` writes to it: the
/// stored transactions, updated with what one history call with the stored revision returned
/// (more pages only while Apple says there are more), and every purchase's token audited again
/// from them.
///
/// What "missing" and "different" mean is then Apple's answer now, not the last fetch: a
/// purchase made with the team's token in the app since (a new purchase, a resubscription), or
/// a token another writer set where Apple lists the change in the history since the revision,
/// is seen, and not overwritten. The store's own App Store data is left as it is: refreshing it
/// is the audit's job.
struct LinkReread: Sendable {
  /// Every purchase of the customer, by original transaction id.
  var purchases: [String: PurchaseToken]
  /// The customer's transactions, stored and fetched, the newer signed copy of each.
  var transactions: [JWSTransaction]
  /// The history requests it took.
  var requests: Int

  /// Asks the App Store for a stored customer's changes since its stored revision.
  ///
  /// - Parameters:
  ///   - walkTransactionId: the id the customer's history is asked with.
  ///   - environment: the environment that knows the customer.
  ///   - revision: the stored revision of its last history page, or `nil`.
  ///   - stored: its stored transactions.
  ///   - accountId: the account the purchases are read for.
  ///   - client: the App Store.
  /// - Returns: the customer as the App Store holds it now.
  /// - Throws: ``AppStoreAPIError`` when the App Store cannot be asked.
  static func read(
    walkTransactionId: String, environment: String, revision: String?,
    stored: [JWSTransaction], accountId: String, client: AppStoreServerAPIClient
  ) async throws(AppStoreAPIError) -> LinkReread {
    let named = AppStoreEnvironment.named(environment) ?? .production
    var fetched: [JWSTransaction] = []
    var requests = 0
    var revision = revision
    while true {
      let page: HistoryResponse
      do {
        requests += 1
        page = try await client.transactionHistory(
          walkTransactionId, query: BackfillStage.historyQuery, revision: revision,
          environment: named)
      } catch {
        // Apple no longer accepts the stored revision: read the whole history instead.
        guard error.errorCode == .invalidRevision, revision != nil else { throw error }
        revision = nil
        fetched = []
        continue
      }
      fetched += page.transactions.map(\.payload)
      guard page.hasMore, let next = page.revision else { break }
      revision = next
    }
    let transactions = merged(stored, fetched)
    // Only what each purchase carries is read here; no mapping is needed for that.
    let audit = TokenAuditor(mapping: AccountTokenMapping()).audit(
      accountId: accountId,
      customers: [
        TokenAuditor.Customer(
          key: walkTransactionId, environment: environment, transactions: transactions)
      ])
    return LinkReread(
      purchases: Dictionary(
        audit.purchases.map { ($0.originalTransactionId, $0) },
        uniquingKeysWith: { first, _ in first }),
      transactions: transactions, requests: requests)
  }

  /// The stored transactions with each fetched one replacing its stored copy when it was
  /// signed later (or the stored one has no date), and the new ones added.
  static func merged(_ stored: [JWSTransaction], _ fetched: [JWSTransaction]) -> [JWSTransaction] {
    var byId: [String: JWSTransaction] = [:]
    var order: [String] = []
    for transaction in stored + fetched {
      guard let id = transaction.transactionId else { continue }
      if let existing = byId[id] {
        let older = existing.signedDate.map { old in
          transaction.signedDate.map { $0 >= old } ?? false
        }
        if older ?? true { byId[id] = transaction }
      } else {
        byId[id] = transaction
        order.append(id)
      }
    }
    return order.compactMap { byId[$0] }
  }

  /// How many of a purchase's transactions, from `since` (the purchase's latest transaction
  /// when a run wrote to it) up to but not including its latest one now, were bought: the
  /// renewals that keep the token the run wrote, since Apple never rewrites a past transaction.
  ///
  /// - Parameters:
  ///   - originalTransactionId: the purchase.
  ///   - since: its latest transaction when the run wrote, if known.
  /// - Returns: the count, or `nil` when `since` is unknown.
  func transactionsKeepingToken(of originalTransactionId: String, since: String?) -> Int? {
    guard let since else { return nil }
    let purchase = transactions.filter {
      ($0.originalTransactionId ?? $0.transactionId) == originalTransactionId
    }
    guard let start = purchase.first(where: { $0.transactionId == since })?.purchaseDate,
      let latest = purchases[originalTransactionId]?.latestTransactionId
    else { return nil }
    return purchase.count {
      ($0.purchaseDate.map { $0 >= start } ?? false) && $0.transactionId != latest
    }
  }
}
