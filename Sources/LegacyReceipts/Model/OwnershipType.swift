/// Whether a purchase belongs to the customer or was shared with them through Family Sharing
/// (`in_app_ownership_type`), keeping unknown values.
public enum OwnershipType: Hashable, Sendable, CustomStringConvertible {
  /// `PURCHASED`
  case purchased
  /// `FAMILY_SHARED`
  case familyShared
  /// Any other value, kept as written.
  case other(String)

  /// Reads the stored spelling.
  ///
  /// - Parameter text: `PURCHASED`, `FAMILY_SHARED`, or anything else.
  public init(_ text: String) {
    switch text {
    case "PURCHASED": self = .purchased
    case "FAMILY_SHARED": self = .familyShared
    default: self = .other(text)
    }
  }

  /// The stored spelling.
  public var description: String {
    switch self {
    case .purchased: return "PURCHASED"
    case .familyShared: return "FAMILY_SHARED"
    case .other(let text): return text
    }
  }
}
