import Chronology

/// Which customers are family members sharing which organiser's subscription, read back from
/// the world itself: a member's shared transactions mirror the organiser's periods (same
/// product, same expiry), so each shared period names its organiser.
struct FamilyLinks {
  private var organiserOfMember: [Int: Int] = [:]
  private var organisers: Set<Int> = []

  /// Reads the links of a world.
  init(world: World) {
    struct Period: Hashable {
      var productId: String
      var expires: Timestamp
    }
    var owners: [Period: Int] = [:]
    for customer in world.customers {
      for transaction in customer.transactions
      where transaction.ownership == .purchased && transaction.kind == .autoRenewable {
        guard let expires = transaction.expiresDate else { continue }
        owners[Period(productId: transaction.productId, expires: expires)] = customer.index
      }
    }
    for customer in world.customers {
      let shared = customer.transactions.first {
        $0.ownership == .familyShared && $0.kind == .autoRenewable
      }
      guard let shared, let expires = shared.expiresDate,
        let owner = owners[Period(productId: shared.productId, expires: expires)]
      else { continue }
      organiserOfMember[customer.index] = owner
      organisers.insert(owner)
    }
  }

  /// Whether the customer at `index` shares another customer's subscription.
  func isMember(_ index: Int) -> Bool { organiserOfMember[index] != nil }

  /// Whether the customer at `index` shares a subscription with family members.
  func isOrganiser(_ index: Int) -> Bool { organisers.contains(index) }

  /// The organiser whose subscription the member at `index` shares.
  func organiser(of index: Int) -> Int? { organiserOfMember[index] }
}
