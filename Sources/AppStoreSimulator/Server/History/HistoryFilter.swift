import AppStoreServerAPI
import Chronology
import HTTPServer
import LegacyReceipts

/// The filters and sort order of a transaction history request (v2), read from its query.
///
/// Values of one repeated parameter are OR-ed, different parameters AND-ed; the dates bound the
/// purchase date (`startDate <= purchaseDate < endDate`).
struct HistoryFilter: Hashable, Sendable {
  var startDate: Int64?
  var endDate: Int64?
  var productIds: Set<String> = []
  var productKinds: Set<ProductKind> = []
  var groups: Set<String> = []
  var ownership: OwnershipType?
  var revoked: Bool?
  var isDescending = false
  var revision: String?

  /// Reads the query; the first invalid parameter decides the error.
  static func parse(_ items: [HTTPQueryItem]) -> Result<HistoryFilter, APIErrorAnswer> {
    var filter = HistoryFilter()
    var ownerships: Set<String> = []
    var sorts: Set<String> = []
    var revokedValues: Set<String> = []
    for item in items {
      switch item.name {
      case "startDate":
        guard let value = Int64(item.value), value >= 0 else { return .failure(.invalidStartDate) }
        filter.startDate = value
      case "endDate":
        guard let value = Int64(item.value), value >= 0 else { return .failure(.invalidEndDate) }
        filter.endDate = value
      case "productId":
        guard !item.value.isEmpty else { return .failure(.invalidProductId) }
        filter.productIds.insert(item.value)
      case "productType":
        guard let kind = Self.kind(item.value) else { return .failure(.invalidProductType) }
        filter.productKinds.insert(kind)
      case "subscriptionGroupIdentifier":
        guard !item.value.isEmpty else { return .failure(.invalidSubscriptionGroupIdentifier) }
        filter.groups.insert(item.value)
      case "inAppOwnershipType":
        guard item.value == "PURCHASED" || item.value == "FAMILY_SHARED" else {
          return .failure(.invalidInAppOwnershipType)
        }
        ownerships.insert(item.value)
      case "revoked":
        // Apple documents lowercase `true` / `false`; Apple's Python library sends Python's
        // `True` / `False` and works against Apple, so the case of the letters is not checked.
        let value = item.value.lowercased()
        guard value == "true" || value == "false" else { return .failure(.invalidRevoked) }
        revokedValues.insert(value)
      case "sort":
        guard item.value == "ASCENDING" || item.value == "DESCENDING" else {
          return .failure(.invalidSort)
        }
        sorts.insert(item.value)
      case "revision":
        guard filter.revision == nil else { return .failure(.invalidRevision) }
        filter.revision = item.value
      default:
        // Unknown parameters are ignored, as they are by most HTTP APIs.
        continue
      }
    }
    // Single-valued parameters sent twice with different values cannot be honoured.
    guard ownerships.count <= 1 else { return .failure(.invalidInAppOwnershipType) }
    guard revokedValues.count <= 1 else { return .failure(.invalidRevoked) }
    guard sorts.count <= 1 else { return .failure(.invalidSort) }
    filter.ownership = ownerships.first.map(OwnershipType.init)
    filter.revoked = revokedValues.first.map { $0 == "true" }
    filter.isDescending = sorts.first == "DESCENDING"
    if let start = filter.startDate, let end = filter.endDate, start >= end {
      return .failure(.startDateAfterEndDate)
    }
    return .success(filter)
  }

  private static func kind(_ text: String) -> ProductKind? {
    switch ProductType(rawValue: text) {
    case .autoRenewable: .autoRenewable
    case .nonRenewable: .nonRenewing
    case .consumable: .consumable
    case .nonConsumable: .nonConsumable
    case .unknown: nil
    }
  }

  /// Whether a transaction passes every filter, as it stands at `now`.
  func matches(_ transaction: SimulatedTransaction, at now: Timestamp) -> Bool {
    let purchased = transaction.purchaseDate.millisecondsSince1970
    if let startDate, purchased < startDate { return false }
    if let endDate, purchased >= endDate { return false }
    if !productIds.isEmpty, !productIds.contains(transaction.productId) { return false }
    if !productKinds.isEmpty, !productKinds.contains(transaction.kind) { return false }
    if !groups.isEmpty, !groups.contains(transaction.group ?? "") { return false }
    if let ownership, ownership != transaction.ownership { return false }
    if let revoked, revoked != (transaction.revocation(at: now) != nil) { return false }
    return true
  }

  /// The fingerprint of everything but the revision: a revision only continues the walk of
  /// exactly these filters and this order.
  var fingerprint: String {
    let parts = [
      "start=\(startDate.map(String.init) ?? "")",
      "end=\(endDate.map(String.init) ?? "")",
      "product=\(productIds.sorted().joined(separator: "|"))",
      "type=\(productKinds.map(\.rawValue).sorted().joined(separator: "|"))",
      "group=\(groups.sorted().joined(separator: "|"))",
      "ownership=\(ownership.map(String.init(describing:)) ?? "")",
      "revoked=\(revoked.map(String.init) ?? "")",
      "sort=\(isDescending ? "DESCENDING" : "ASCENDING")",
    ]
    return PageCursor.fingerprint(parts.joined(separator: ";"))
  }
}
