/// The team's `appAccountToken` for each of its accounts, and the reverse: which account a
/// token belongs to, so that a purchase carrying another account's token can be named.
public struct AccountTokenMapping: Hashable, Sendable {
  /// Each account's token, lower-cased.
  public private(set) var tokenByAccount: [String: String]
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
    if let holder = accountByToken[token], holder != accountId {
      return .tokenHeldBy(holder)
    }
    if let existing = tokenByAccount[accountId], existing != token {
      return .accountHasToken(existing)
    }
    tokenByAccount[accountId] = token
    accountByToken[token] = accountId
    return nil
  }

  /// The account's token, if the mapping has one.
  public func token(forAccount accountId: String) -> String? {
    tokenByAccount[accountId]
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
