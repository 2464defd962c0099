import CryptoSupport
import Entitlements
import Foundation
import MigrationStore

// MARK: - Accounts and customers the legacy data does not hold

extension MigrationRunner {
  /// What the team table holds that the legacy data does not.
  public struct TableAdoption: Sendable {
    /// Accounts of the table the store did not hold, with a customer id the table gave: stored
    /// as their seeds, for the backfill to fetch.
    public var adopted = 0
    /// Every account of the table the store did not hold (adopted or not), for a token mapping
    /// derived from account ids.
    public var outsiders: [String] = []
  }

  /// Reads the team table for accounts the store does not hold. When the table carries the
  /// customer's `original_transaction_id` or `app_transaction_id`, each such account gets that
  /// id as a seed (`team_table`), so the backfill fetches its customer like a new legacy id and
  /// the comparison compares it; the others are reported as accounts only in the table. Reads
  /// nothing without a table, or when the table has no id column and no token mapping is
  /// derived from account ids.
  ///
  /// - Returns: what it found.
  /// - Throws: ``CurrentEntitlementsReader/Failure``, `SQLiteError`.
  public func adoptTableAccounts() throws -> TableAdoption {
    guard let path = options.currentEntitlementsPath else { return TableAdoption() }
    let carriesIds = try CurrentEntitlementsReader.carriesCustomerIds(path)
    var derivesTokens = false
    if case .derived? = options.tokens { derivesTokens = true }
    guard carriesIds || derivesTokens else { return TableAdoption() }
    let store = try openStore()
    defer { try? store.close() }
    var adoption = TableAdoption()
    // Only the accounts outside the store are remembered (adopting one adds it to the store): a
    // table of a million accounts the store holds is not held in memory.
    var outsiders: Set<AccountKey> = []
    // An account whose rows name several ids (one per subscription) is one account adopted.
    var adopted: Set<AccountKey> = []
    let file = Self.fileName(path)
    _ = try CurrentEntitlementsReader.read(path) { rows in
      for (account, row) in rows {
        let key = AccountKey(account)
        if !outsiders.contains(key) {
          guard try !store.hasAccount(account) else { continue }
          outsiders.insert(key)
          adoption.outsiders.append(account)
        }
        guard let id = row.customerId else { continue }
        let raw = Array("\(account),\(row.productId),\(id)".utf8)
        if try store.storeDiscoveredSeed(
          id, accountId: account, source: "team_table", sourcePath: file, sourceLine: nil,
          raw: raw, contentSHA256: SHA256.hash(raw), environment: nil,
          now: now().millisecondsSince1970)
        {
          adopted.insert(key)
        }
      }
    }
    adoption.adopted = adopted.count
    return adoption
  }
}
