import Entitlements

/// Ids that probably belong to one App Store customer: ids found in the same legacy record are
/// one receipt's, a record shares its customer with every record holding one of its ids, and a
/// team account's ids usually belong to one Apple Account. A group's ids are worked through one
/// after another, so the first walk covers the rest without a request; an id of another
/// customer simply gets its own walk.
struct SeedGroup: Sendable {
  /// The ids, sorted.
  var ids: [String]
  /// Which accounts hold which of the ids.
  var accountsById: [String: [String]]
  /// The environment to try first: the one most of the records name.
  var environmentHint: String?

  /// Groups seed links by the records they share (union-find over ids).
  static func groups(
    from links: [(accountId: String, id: String, recordId: Int64, environment: String?)]
  ) -> [SeedGroup] {
    var parent: [String: String] = [:]
    func root(_ id: String) -> String {
      var node = id
      while let next = parent[node], next != node { node = next }
      return node
    }
    func union(_ lhs: String, _ rhs: String) {
      let (left, right) = (root(lhs), root(rhs))
      if left != right { parent[max(left, right)] = min(left, right) }
    }
    var firstIdOfRecord: [Int64: String] = [:]
    // Keyed by bytes: two accounts whose ids are canonically equivalent are still two.
    var firstIdOfAccount: [AccountKey: String] = [:]
    for link in links {
      if parent[link.id] == nil { parent[link.id] = link.id }
      if let first = firstIdOfRecord[link.recordId] {
        union(first, link.id)
      } else {
        firstIdOfRecord[link.recordId] = link.id
      }
      if let first = firstIdOfAccount[AccountKey(link.accountId)] {
        union(first, link.id)
      } else {
        firstIdOfAccount[AccountKey(link.accountId)] = link.id
      }
    }
    var members: [String: [(accountId: String, id: String, environment: String?)]] = [:]
    for link in links {
      members[root(link.id), default: []].append((link.accountId, link.id, link.environment))
    }
    return members.keys.sorted().map { key in
      let entries = members[key] ?? []
      var accountsById: [String: [String]] = [:]
      for entry in entries
      where !(accountsById[entry.id] ?? []).contains(where: {
        AccountKey.haveSameBytes($0, entry.accountId)
      }) {
        accountsById[entry.id, default: []].append(entry.accountId)
      }
      let votes = Dictionary(grouping: entries.compactMap(\.environment), by: { $0 }).mapValues(
        \.count)
      let hint = votes.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
      return SeedGroup(
        ids: accountsById.keys.sorted(), accountsById: accountsById, environmentHint: hint)
    }
  }
}
