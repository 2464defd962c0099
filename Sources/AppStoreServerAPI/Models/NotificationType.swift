/// The kind of an App Store server notification (version 2).
///
/// Values without a typed case survive as ``unknown(_:)``.
public enum NotificationType: OpenEnumeration {
  /// `CONSUMPTION_REQUEST`.
  case consumptionRequest
  /// `DID_CHANGE_RENEWAL_PREF`.
  case didChangeRenewalPref
  /// `DID_CHANGE_RENEWAL_STATUS`.
  case didChangeRenewalStatus
  /// `DID_FAIL_TO_RENEW`.
  case didFailToRenew
  /// `DID_RENEW`.
  case didRenew
  /// `EXPIRED`.
  case expired
  /// `EXTERNAL_PURCHASE_TOKEN`.
  case externalPurchaseToken
  /// `GRACE_PERIOD_EXPIRED`.
  case gracePeriodExpired
  /// `OFFER_REDEEMED`.
  case offerRedeemed
  /// `ONE_TIME_CHARGE`.
  case oneTimeCharge
  /// `PRICE_INCREASE`.
  case priceIncrease
  /// `REFUND`.
  case refund
  /// `REFUND_DECLINED`.
  case refundDeclined
  /// `REFUND_REVERSED`.
  case refundReversed
  /// `RENEWAL_EXTENDED`.
  case renewalExtended
  /// `RENEWAL_EXTENSION`.
  case renewalExtension
  /// `REVOKE`.
  case revoke
  /// `SUBSCRIBED`.
  case subscribed
  /// `TEST`.
  case test
  /// A parent or guardian withdrew consent for the app's use by a child. (`RESCIND_CONSENT`)
  case rescindConsent
  /// An Advanced Commerce API subscription's metadata changed. (`METADATA_UPDATE`)
  case metadataUpdate
  /// A subscription moved to the Advanced Commerce API. (`MIGRATION`)
  case migration
  /// An Advanced Commerce API subscription's price changed. (`PRICE_CHANGE`)
  case priceChange
  /// A value this version does not know, kept as sent.
  case unknown(String)

  /// The value for a raw value as Apple sends it.
  ///
  /// - Parameter rawValue: The raw value.
  public init(rawValue: String) {
    switch rawValue {
    case "CONSUMPTION_REQUEST": self = .consumptionRequest
    case "DID_CHANGE_RENEWAL_PREF": self = .didChangeRenewalPref
    case "DID_CHANGE_RENEWAL_STATUS": self = .didChangeRenewalStatus
    case "DID_FAIL_TO_RENEW": self = .didFailToRenew
    case "DID_RENEW": self = .didRenew
    case "EXPIRED": self = .expired
    case "EXTERNAL_PURCHASE_TOKEN": self = .externalPurchaseToken
    case "GRACE_PERIOD_EXPIRED": self = .gracePeriodExpired
    case "OFFER_REDEEMED": self = .offerRedeemed
    case "ONE_TIME_CHARGE": self = .oneTimeCharge
    case "PRICE_INCREASE": self = .priceIncrease
    case "REFUND": self = .refund
    case "REFUND_DECLINED": self = .refundDeclined
    case "REFUND_REVERSED": self = .refundReversed
    case "RENEWAL_EXTENDED": self = .renewalExtended
    case "RENEWAL_EXTENSION": self = .renewalExtension
    case "REVOKE": self = .revoke
    case "SUBSCRIBED": self = .subscribed
    case "TEST": self = .test
    case "RESCIND_CONSENT": self = .rescindConsent
    case "METADATA_UPDATE": self = .metadataUpdate
    case "MIGRATION": self = .migration
    case "PRICE_CHANGE": self = .priceChange
    default: self = .unknown(rawValue)
    }
  }

  /// The value as Apple sends it.
  public var rawValue: String {
    switch self {
    case .consumptionRequest: "CONSUMPTION_REQUEST"
    case .didChangeRenewalPref: "DID_CHANGE_RENEWAL_PREF"
    case .didChangeRenewalStatus: "DID_CHANGE_RENEWAL_STATUS"
    case .didFailToRenew: "DID_FAIL_TO_RENEW"
    case .didRenew: "DID_RENEW"
    case .expired: "EXPIRED"
    case .externalPurchaseToken: "EXTERNAL_PURCHASE_TOKEN"
    case .gracePeriodExpired: "GRACE_PERIOD_EXPIRED"
    case .offerRedeemed: "OFFER_REDEEMED"
    case .oneTimeCharge: "ONE_TIME_CHARGE"
    case .priceIncrease: "PRICE_INCREASE"
    case .refund: "REFUND"
    case .refundDeclined: "REFUND_DECLINED"
    case .refundReversed: "REFUND_REVERSED"
    case .renewalExtended: "RENEWAL_EXTENDED"
    case .renewalExtension: "RENEWAL_EXTENSION"
    case .revoke: "REVOKE"
    case .subscribed: "SUBSCRIBED"
    case .test: "TEST"
    case .rescindConsent: "RESCIND_CONSENT"
    case .metadataUpdate: "METADATA_UPDATE"
    case .migration: "MIGRATION"
    case .priceChange: "PRICE_CHANGE"
    case .unknown(let value): value
    }
  }
}
