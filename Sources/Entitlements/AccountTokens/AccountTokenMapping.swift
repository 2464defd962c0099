/// The team's `appAccountToken` for each of its accounts, and the reverse: which account a
/// token belongs to, so that a purchase carrying another account's token can be named.
///
/// Accounts are told apart by their bytes (``AccountKey``), as the store tells them apart: two
/// ids that differ only in Unicode normalization are two accounts with their own tokens.
public struct AccountTokenMapping: Hashable, Sendable {
  /// Each account's token, lower-cased.
  public private(set) var tokenByAccount: [AccountKey: String]
  /// Each token's account.
  public private(set) var accountByToken: [String: String]

  /// An empty mapping.
  public init() {
    tokenByAccount = [:]
    accountByToken = [:]
  }

  /// Adds an account's token.
  ///
  /// - Parameters:
  ///   - token: The token (a UUID), any case.
  ///   - accountId: The account.
  /// - Returns: The account that already holds the token or another token for this account,
  ///   when the pair conflicts with the mapping (nothing is changed then); `nil` when added.
  @discardableResult
  public mutating func add(token: String, forAccount accountId: String) -> Conflict? {
    let token = token.lowercased()
    if let holder = accountByToken[token], !AccountKey.haveSameBytes(holder, accountId) {
      return .tokenHeldBy(holder)
    }
    if let existing = tokenByAccount[AccountKey(accountId)], existing != token {
      return .accountHasToken(existing)
    }
    tokenByAccount[AccountKey(accountId)] = token
    accountByToken[token] = accountId
    return nil
  }

  /// Every account's token, in the store's order of accounts (by their bytes): the form the
  /// store records a run's mapping in.
  public var tokensInAccountOrder: [(accountId: String, token: String)] {
    tokenByAccount.sorted { $0.key < $1.key }.map { ($0.key.id, $0.value) }
  }

  /// The account's token, if the mapping has one: the token of exactly these bytes.
  public func token(forAccount accountId: String) -> String? {
    tokenByAccount[AccountKey(accountId)]
  }

  /// The account a token belongs to, if any.
  public func account(owning token: String) -> String? {
    accountByToken[token.lowercased()]
  }

  /// Why a pair could not be added.
  public enum Conflict: Hashable, Sendable {
    /// Another account already has this token.
    case tokenHeldBy(String)
    /// The account already has another token.
    case accountHasToken(String)
  }
}
