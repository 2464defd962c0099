/// The `status` of a verifyReceipt response, keeping the raw code so that codes Apple never
/// documented survive.
public struct ReceiptStatus: Hashable, Sendable, CustomStringConvertible {
  /// The numeric code as stored.
  public var rawValue: Int64

  /// Creates a status from its code.
  ///
  /// - Parameter rawValue: the numeric `status` field.
  public init(rawValue: Int64) {
    self.rawValue = rawValue
  }

  /// 0: the receipt is valid.
  public static let valid = ReceiptStatus(rawValue: 0)
  /// 21006: valid, but the subscription has expired (iOS 6 style only; the data is present).
  public static let validButExpired = ReceiptStatus(rawValue: 21006)

  /// Whether the response carries usable transactions: status 0, or 21006 (iOS 6 "valid but
  /// expired", which still holds the decoded receipt).
  public var carriesTransactions: Bool { rawValue == 0 || rawValue == 21006 }

  /// Whether this code is one of Apple's internal errors (21100–21199).
  public var isInternalError: Bool { (21100...21199).contains(rawValue) }

  /// What the code means, from Apple's documentation.
  public var meaning: String {
    switch rawValue {
    case 0: return "valid"
    case 21000: return "the request was not an HTTP POST or its JSON was unreadable"
    case 21001: return "no longer sent by Apple"
    case 21002: return "malformed receipt data, or a temporary issue"
    case 21003: return "the receipt could not be authenticated"
    case 21004: return "the shared secret does not match"
    case 21005: return "the receipt server was temporarily unavailable"
    case 21006: return "valid, but the subscription has expired"
    case 21007: return "a sandbox receipt was sent to production"
    case 21008: return "a production receipt was sent to sandbox"
    case 21009: return "internal data access error"
    case 21010: return "the user account cannot be found or has been deleted"
    case 21100...21199: return "internal error at Apple"
    default: return "undocumented status"
    }
  }

  /// `21007 (a sandbox receipt was sent to production)`.
  public var description: String { "\(rawValue) (\(meaning))" }
}
