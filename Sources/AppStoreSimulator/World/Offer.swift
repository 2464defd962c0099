/// A subscription offer applied to a transaction.
public struct Offer: Hashable, Sendable {
  /// `offerType`: 1 introductory, 2 promotional, 3 offer code, 4 win-back.
  public var type: Int64
  /// `offerIdentifier` (promotional offers, offer codes, win-back offers).
  public var identifier: String?
  /// `offerDiscountType`: `FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`.
  public var discountType: String
  /// `offerPeriod`, an ISO 8601 duration such as `P1M`.
  public var period: String

  /// Creates an offer.
  ///
  /// - Parameters:
  ///   - type: the offer type.
  ///   - identifier: the offer identifier.
  ///   - discountType: the discount type.
  ///   - period: the offer period.
  public init(type: Int64, identifier: String?, discountType: String, period: String) {
    self.type = type
    self.identifier = identifier
    self.discountType = discountType
    self.period = period
  }
}
