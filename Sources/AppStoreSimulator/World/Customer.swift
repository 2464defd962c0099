import Chronology
import LegacyReceipts

/// One Apple Account that uses the simulated app: its purchases over time and the renewal
/// state of each subscription.
public struct Customer: Hashable, Sendable {
  /// The customer's position in the world, stable for a given seed.
  public var index: Int
  /// `appTransactionId`: one per Apple Account per app, the cleanest customer key.
  public var appTransactionId: String
  /// The environment that knows the customer.
  public var environment: SimulatedEnvironment
  /// Whether the App Store has forgotten the customer (a cleared sandbox account): legacy
  /// data still names its ids, the App Store answers `4040010`.
  public var isForgotten: Bool
  /// When the customer first downloaded the app.
  public var firstSeen: Timestamp
  /// Every transaction, in purchase order.
  public var transactions: [SimulatedTransaction]
  /// The renewal state of each subscription.
  public var renewals: [RenewalTimeline]
  /// When the customer restored purchases on a device, which makes family-shared purchases
  /// appear in that device's receipt; `nil` if never.
  public var restoredPurchasesAt: Timestamp?
  /// What happened to the customer, in words (for documentation and for tests that check the
  /// expected categories are justified).
  public var story: [String]

  /// Creates a customer.
  public init(
    index: Int, appTransactionId: String, environment: SimulatedEnvironment,
    isForgotten: Bool = false,
    firstSeen: Timestamp, transactions: [SimulatedTransaction] = [],
    renewals: [RenewalTimeline] = [],
    restoredPurchasesAt: Timestamp? = nil, story: [String] = []
  ) {
    self.index = index
    self.appTransactionId = appTransactionId
    self.environment = environment
    self.isForgotten = isForgotten
    self.firstSeen = firstSeen
    self.transactions = transactions
    self.renewals = renewals
    self.restoredPurchasesAt = restoredPurchasesAt
    self.story = story
  }

  /// Whether any of the customer's transactions carries this id, as a transaction, an original
  /// transaction, or the app transaction.
  ///
  /// - Parameter id: any transaction id.
  public func owns(_ id: String) -> Bool {
    id == appTransactionId
      || transactions.contains { $0.transactionId == id || $0.originalTransactionId == id }
  }
}
