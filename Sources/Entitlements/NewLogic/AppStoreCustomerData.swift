import AppStoreServerAPI

/// What the App Store said about one customer: the full transaction history and every
/// subscription status — the input of the new logic.
public struct AppStoreCustomerData: Hashable, Sendable {
  /// Every transaction, one per transaction id (the newest signed copy).
  public var transactions: [JWSTransaction]
  /// Every subscription status.
  public var statuses: [StatusEntry]

  /// Creates customer data.
  public init(transactions: [JWSTransaction], statuses: [StatusEntry]) {
    self.transactions = transactions
    self.statuses = statuses
  }
}
