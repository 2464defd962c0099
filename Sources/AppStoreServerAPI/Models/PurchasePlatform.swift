/// The platform an app was first bought on (`originalPlatform`).
///
/// Values without a typed case survive as ``unknown(_:)``.
public enum PurchasePlatform: OpenEnumeration {
  /// iOS or iPadOS. (`iOS`)
  case iOS
  /// macOS. (`macOS`)
  case macOS
  /// tvOS. (`tvOS`)
  case tvOS
  /// visionOS. (`visionOS`)
  case visionOS
  /// A value this version does not know, kept as sent.
  case unknown(String)

  /// The value for a raw value as Apple sends it.
  ///
  /// - Parameter rawValue: The raw value.
  public init(rawValue: String) {
    switch rawValue {
    case "iOS": self = .iOS
    case "macOS": self = .macOS
    case "tvOS": self = .tvOS
    case "visionOS": self = .visionOS
    default: self = .unknown(rawValue)
    }
  }

  /// The value as Apple sends it.
  public var rawValue: String {
    switch self {
    case .iOS: "iOS"
    case .macOS: "macOS"
    case .tvOS: "tvOS"
    case .visionOS: "visionOS"
    case .unknown(let value): value
    }
  }
}
