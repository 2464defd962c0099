import Chronology
import CryptoSupport

/// The `appAccountToken` the team's app sets on purchases made after the cut-over (the world's
/// clock): a UUID version 5 of the customer's account id in the team's namespace — what
/// `--derive-tokens` computes — on every purchase whose first purchase came after the clock, so
/// a customer who first buys then can be followed into its account.
struct PostCutoverTokens {
  /// The namespace UUID.
  let namespace: [UInt8]

  /// Sets the tokens of `world`'s purchases made after its clock (the customer's own purchases;
  /// family-shared ones carry the organiser's). A customer's account is the first account that
  /// lists it.
  func assign(to world: inout World) {
    var accountOf: [Int: String] = [:]
    for account in world.accounts {
      for customer in account.customers where accountOf[customer] == nil {
        accountOf[customer] = account.id
      }
    }
    for index in world.customers.indices {
      guard let account = accountOf[index] else { continue }
      let token = NameBasedUUID.text(
        of: NameBasedUUID.version5(name: account, namespace: namespace))
      for offset in world.customers[index].transactions.indices {
        let transaction = world.customers[index].transactions[offset]
        guard transaction.originalPurchaseDate > world.now, transaction.ownership == .purchased,
          transaction.appAccountToken == nil
        else { continue }
        world.customers[index].transactions[offset].appAccountToken = token
      }
    }
  }
}
