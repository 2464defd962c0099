import AppStoreServerAPI
import Chronology

/// What the App Store said about one customer: the full transaction history and every
/// subscription status — the input of the new logic.
public struct AppStoreCustomerData: Hashable, Sendable {
  /// Every transaction, one per transaction id (the newest signed copy).
  public var transactions: [JWSTransaction]
  /// Every subscription status.
  public var statuses: [StatusEntry]

  /// When the App Store signed the statuses: the earliest `signedDate` among them, the instant
  /// the customer's data as a whole is true as of. `nil` without statuses.
  public var statusesSignedAt: Timestamp? {
    statuses.compactMap(\.signedDate).min()
  }

  /// Creates customer data.
  public init(transactions: [JWSTransaction], statuses: [StatusEntry]) {
    self.transactions = transactions
    self.statuses = statuses
  }
}
