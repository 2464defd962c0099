/// Where a generated world's numbering starts: its first account number and its first customer
/// number. Parts of a larger world, generated one after another with the numbering moved on by
/// each part's size, hold distinct account ids, transaction ids and random streams.
public struct WorldNumbering: Hashable, Sendable {
  /// The number of the first account (0 for `u000001`).
  public var firstAccount: Int
  /// The number of the first customer, which its ids derive from.
  public var firstCustomer: Int

  /// Creates a numbering.
  ///
  /// - Parameters:
  ///   - firstAccount: the first account's number.
  ///   - firstCustomer: the first customer's number.
  public init(firstAccount: Int = 0, firstCustomer: Int = 0) {
    self.firstAccount = firstAccount
    self.firstCustomer = firstCustomer
  }
}
