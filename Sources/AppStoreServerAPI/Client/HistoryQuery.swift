import Chronology

/// The filters of a transaction history request (v2). A pager sends the same filters with every
/// page, as Apple requires together with `revision`.
public struct HistoryQuery: Sendable, Hashable {
  /// The order of the history: by last-modified date, not purchase date.
  public enum Sort: String, Sendable, Hashable {
    /// Oldest change first (the default; the only order whose revision is useful for sync).
    case ascending = "ASCENDING"
    /// Newest change first.
    case descending = "DESCENDING"
  }

  /// Only transactions bought at or after this instant.
  public var startDate: Timestamp?
  /// Only transactions bought before this instant.
  public var endDate: Timestamp?
  /// Only these products (OR-ed).
  public var productIds: [String]
  /// Only these product types (OR-ed).
  public var productTypes: [ProductType]
  /// Only these subscription groups (OR-ed).
  public var subscriptionGroupIdentifiers: [String]
  /// Only purchased or only family-shared transactions.
  public var inAppOwnershipType: InAppOwnershipType?
  /// `true` only revoked, `false` only not revoked, `nil` both.
  public var revoked: Bool?
  /// The order; `nil` leaves Apple's default (ascending).
  public var sort: Sort?

  /// A query with the given filters; with none, the whole history in ascending order.
  ///
  /// - Parameters:
  ///   - startDate: The earliest purchase date.
  ///   - endDate: The purchase date before which to stop.
  ///   - productIds: Products to include.
  ///   - productTypes: Product types to include.
  ///   - subscriptionGroupIdentifiers: Subscription groups to include.
  ///   - inAppOwnershipType: Ownership to include.
  ///   - revoked: Revocation state to include.
  ///   - sort: The order.
  public init(
    startDate: Timestamp? = nil, endDate: Timestamp? = nil, productIds: [String] = [],
    productTypes: [ProductType] = [], subscriptionGroupIdentifiers: [String] = [],
    inAppOwnershipType: InAppOwnershipType? = nil, revoked: Bool? = nil, sort: Sort? = nil
  ) {
    self.startDate = startDate
    self.endDate = endDate
    self.productIds = productIds
    self.productTypes = productTypes
    self.subscriptionGroupIdentifiers = subscriptionGroupIdentifiers
    self.inAppOwnershipType = inAppOwnershipType
    self.revoked = revoked
    self.sort = sort
  }

  /// Whether this is the unfiltered ascending walk whose last revision can be stored for
  /// incremental sync.
  public var isIncrementalSyncWalk: Bool {
    self == HistoryQuery() || self == HistoryQuery(sort: .ascending)
  }

  /// The query parameters, repeatable ones repeated, with `revision` last when given.
  ///
  /// - Parameter revision: The previous page's revision, or `nil` for the first page.
  /// - Returns: Name–value pairs in a stable order.
  public func queryItems(revision: String?) -> [(name: String, value: String)] {
    var items: [(name: String, value: String)] = []
    if let startDate { items.append(("startDate", String(startDate.millisecondsSince1970))) }
    if let endDate { items.append(("endDate", String(endDate.millisecondsSince1970))) }
    items += productIds.map { ("productId", $0) }
    items += productTypes.map { ("productType", $0.rawValue) }
    items += subscriptionGroupIdentifiers.map { ("subscriptionGroupIdentifier", $0) }
    if let inAppOwnershipType { items.append(("inAppOwnershipType", inAppOwnershipType.rawValue)) }
    if let revoked { items.append(("revoked", revoked ? "true" : "false")) }
    if let sort { items.append(("sort", sort.rawValue)) }
    if let revision { items.append(("revision", revision)) }
    return items
  }
}
