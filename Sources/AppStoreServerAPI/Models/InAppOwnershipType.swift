/// Whether the customer bought the product or has it through Family Sharing.
///
/// Values without a typed case survive as ``unknown(_:)``.
public enum InAppOwnershipType: OpenEnumeration {
  /// The customer bought it. (`PURCHASED`)
  case purchased
  /// A family member shares it with the customer. (`FAMILY_SHARED`)
  case familyShared
  /// It was assigned to the customer (a newer value). (`ASSIGNED`)
  case assigned
  /// A value this version does not know, kept as sent.
  case unknown(String)

  /// The value for a raw value as Apple sends it.
  ///
  /// - Parameter rawValue: The raw value.
  public init(rawValue: String) {
    switch rawValue {
    case "PURCHASED": self = .purchased
    case "FAMILY_SHARED": self = .familyShared
    case "ASSIGNED": self = .assigned
    default: self = .unknown(rawValue)
    }
  }

  /// The value as Apple sends it.
  public var rawValue: String {
    switch self {
    case .purchased: "PURCHASED"
    case .familyShared: "FAMILY_SHARED"
    case .assigned: "ASSIGNED"
    case .unknown(let value): value
    }
  }
}
