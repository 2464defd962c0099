/// Why an auto-renewable subscription expired (`expiration_intent`), keeping the raw code.
public struct ExpirationIntent: Hashable, Sendable, CustomStringConvertible {
  /// The numeric code as stored.
  public var rawValue: Int64

  /// Creates an intent from its code.
  ///
  /// - Parameter rawValue: the numeric `expiration_intent` field.
  public init(rawValue: Int64) {
    self.rawValue = rawValue
  }

  /// 1: the customer cancelled.
  public static let customerCancelled = ExpirationIntent(rawValue: 1)
  /// 2: a billing error (the payment failed).
  public static let billingError = ExpirationIntent(rawValue: 2)
  /// 3: the customer did not agree to a price increase.
  public static let declinedPriceIncrease = ExpirationIntent(rawValue: 3)
  /// 4: the product was not available at renewal.
  public static let productUnavailable = ExpirationIntent(rawValue: 4)
  /// 5: unknown.
  public static let unknown = ExpirationIntent(rawValue: 5)

  /// A short phrase for reports: `customer cancelled`.
  public var description: String {
    switch rawValue {
    case 1: return "customer cancelled"
    case 2: return "billing error"
    case 3: return "declined a price increase"
    case 4: return "product unavailable"
    case 5: return "unknown reason"
    default: return "undocumented intent \(rawValue)"
    }
  }
}
