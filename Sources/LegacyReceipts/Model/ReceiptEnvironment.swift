/// The environment a stored response names: the first guess for which App Store Server API
/// environment knows the customer.
public enum ReceiptEnvironment: Hashable, Sendable, CustomStringConvertible {
  /// `Production`
  case production
  /// `Sandbox`
  case sandbox
  /// Any other spelling, kept as written.
  case other(String)

  /// Reads the environment from its stored spelling, case-insensitively.
  ///
  /// - Parameter text: `Production`, `Sandbox`, or anything else.
  public init(_ text: String) {
    switch text.lowercased() {
    case "production", "prod": self = .production
    case "sandbox": self = .sandbox
    default: self = .other(text)
    }
  }

  /// `Production`, `Sandbox`, or the raw text.
  public var description: String {
    switch self {
    case .production: return "Production"
    case .sandbox: return "Sandbox"
    case .other(let text): return text
    }
  }
}
