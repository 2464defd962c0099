import Entitlements
import Terminal

/// The words every renderer uses for one side's view of a key, so the HTML, the CSV and the
/// terminal describe a view identically.
enum ViewText {
  /// The names of the five views, in the order reports list them.
  enum Side: String, CaseIterable {
    case old = "old"
    case new = "new"
    case oldAtCapture = "old at capture"
    case newAtCapture = "new at capture"
    case table = "team table"

    /// The view of this side in a key comparison.
    func view(in key: KeyComparison) -> EntitlementView? {
      switch self {
      case .old: return key.old
      case .new: return key.new
      case .oldAtCapture: return key.oldAtCapture
      case .newAtCapture: return key.newAtCapture
      case .table: return key.table
      }
    }

    /// Whether reports list this side even when it is absent: old and new always ("none"
    /// says the side knows nothing of the key); the others only when present.
    var isAlwaysShown: Bool { self == .old || self == .new }
  }

  /// `active`, or `none` for a side that knows nothing of the key.
  static func status(_ view: EntitlementView?) -> String { view?.status.rawValue ?? "none" }

  /// The facts of a view besides status, product, expiry and reason, joined by `; `:
  /// `auto_renewable; grace until 2024-06-20T00:00:00Z; auto-renew off; original 1000000001`.
  static func details(_ view: EntitlementView) -> String {
    var parts: [String] = []
    if let kind = view.kind { parts.append(kind.rawValue) }
    if let grace = view.gracePeriodExpiresDate { parts.append("grace until \(grace.iso8601)") }
    if let ownership = view.ownership { parts.append(ownership) }
    if let autoRenew = view.autoRenewStatus {
      parts.append("auto-renew \(autoRenew ? "on" : "off")")
    }
    if let intent = view.expirationIntent { parts.append("expiration intent \(intent)") }
    if let revoked = view.revocationDate {
      var revocation = "revoked \(revoked.iso8601)"
      var qualifiers: [String] = []
      if let type = view.revocationType { qualifiers.append(type) }
      if let percentage = view.revocationPercentage {
        // Milli-units: 25000 is 25%.
        qualifiers.append(
          NumberFormatting.decimal(Double(percentage) / 1000, fractionDigits: 1) + "%")
      }
      if !qualifiers.isEmpty { revocation += " (" + qualifiers.joined(separator: ", ") + ")" }
      parts.append(revocation)
    } else if let type = view.revocationType {
      parts.append("revocation \(type)")
    }
    if let offer = view.offerType { parts.append("offer type \(offer)") }
    if let original = view.originalTransactionId { parts.append("original \(original)") }
    if let transaction = view.transactionId { parts.append("transaction \(transaction)") }
    return parts.joined(separator: "; ")
  }

  /// `group:20000001 refund_missed: active -> revoked`, with ` (table expired)` when the team's
  /// table has a view: one key in one line.
  static func keyLine(_ key: KeyComparison) -> String {
    var line = "\(key.key) \(key.category.rawValue): \(status(key.old)) -> \(status(key.new))"
    if let table = key.table { line += " (table \(table.status.rawValue))" }
    return line
  }
}
