import Chronology

/// One record the team stored for an account: whose receipt, when, and in which shape — the
/// plan from which the legacy outputs are written.
public struct LegacySnapshot: Hashable, Sendable {
  /// How the record looks.
  public enum Style: String, Hashable, Sendable {
    /// A modern verifyReceipt response.
    case modern
    /// An iOS 6 style response.
    case iOS6 = "ios6"
    /// Only the base64 receipt the app sent.
    case rawReceipt = "raw_receipt"
    /// A response with an error status and nothing else.
    case errorStatus = "error_status"
    /// No response at all: only the customer's `app_transaction_id`, which the team's app
    /// reported (every customer has one, even one who never bought anything).
    case appTransactionIdOnly = "app_transaction_id"
    /// No response at all: only an order id from the customer's receipt e-mail (the order of
    /// the customer's first paid purchase by the capture instant).
    case orderIdOnly = "order_id"
  }

  /// The customer whose receipt it is.
  public var customer: Int
  /// When it was captured (`request_date`).
  public var capturedAt: Timestamp
  /// The shape.
  public var style: Style
  /// The error status, for `.errorStatus`.
  public var status: Int64?
  /// Fetched with `exclude-old-transactions`: only the latest transaction per subscription.
  public var excludesOldTransactions: Bool
  /// `latest_receipt_info` repeats some entries, as real archives do.
  public var duplicatesEntries: Bool
  /// Numbers and booleans written as JSON numbers instead of strings.
  public var usesJSONNumbers: Bool
  /// Upgrades marked with `cancellation_date` only (no `is_upgraded`), as in old data.
  public var marksUpgradesByCancellation: Bool
  /// The team stored the customer's `app_transaction_id` beside the record.
  public var storesAppTransactionId: Bool
  /// `latest_receipt_info` lists the oldest transaction first, as Apple's answers once did
  /// (the order was never documented and changed).
  public var listsOldestFirst: Bool = false
  /// The receipt was captured right after a consumable purchase the app had not finished yet,
  /// so `in_app` still holds it (and any other bought in the hour before).
  public var holdsUnfinishedConsumables: Bool = false

  /// Creates a snapshot.
  public init(
    customer: Int, capturedAt: Timestamp, style: Style, status: Int64? = nil,
    excludesOldTransactions: Bool = false,
    duplicatesEntries: Bool = false, usesJSONNumbers: Bool = false,
    marksUpgradesByCancellation: Bool = false, storesAppTransactionId: Bool = false
  ) {
    self.storesAppTransactionId = storesAppTransactionId
    self.customer = customer
    self.capturedAt = capturedAt
    self.style = style
    self.status = status
    self.excludesOldTransactions = excludesOldTransactions
    self.duplicatesEntries = duplicatesEntries
    self.usesJSONNumbers = usesJSONNumbers
    self.marksUpgradesByCancellation = marksUpgradesByCancellation
  }
}
