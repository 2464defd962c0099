import LegacyReceipts

/// The order ids of the simulated App Store: the id on a customer's receipt email, which
/// `GET /inApps/v1/lookup/{orderId}` resolves.
///
/// Every transaction the customer paid for is its own order (a purchase or a renewal); a
/// family-shared transaction is not an order of the member. The id is derived from the
/// transaction id, so it is stable across runs: `M` followed by the transaction id, mixed with a
/// constant, in 13 characters of Crockford's base 32 (`0-9A-Z` without `I`, `L`, `O`, `U`),
/// such as `M0MPS4DGSA0HQH` for transaction `2000000000000001`.
public enum OrderIdentifier {
  private static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)
  private static let mask: UInt64 = 0x0A5C_3E91_7B2D_46F0
  private static let digits = 13

  /// The order id of a transaction, or `nil` for a family-shared one.
  ///
  /// - Parameter transaction: the transaction.
  /// - Returns: its order id.
  public static func orderId(for transaction: SimulatedTransaction) -> String? {
    guard transaction.ownership != .familyShared else { return nil }
    return orderId(forTransactionId: transaction.transactionId)
  }

  /// The order id for a transaction id, or `nil` when the id is not a number below 2^64.
  ///
  /// - Parameter transactionId: the transaction id.
  /// - Returns: the order id.
  public static func orderId(forTransactionId transactionId: String) -> String? {
    guard let number = UInt64(transactionId) else { return nil }
    var value = number ^ mask
    var characters = [UInt8](repeating: 0, count: digits)
    for position in stride(from: digits - 1, through: 0, by: -1) {
      characters[position] = alphabet[Int(value & 31)]
      value >>= 5
    }
    return "M" + String(decoding: characters, as: UTF8.self)
  }

  /// The transaction id an order id stands for, or `nil` when it is not a simulator order id.
  ///
  /// - Parameter orderId: the order id.
  /// - Returns: the transaction id.
  public static func transactionId(forOrderId orderId: String) -> String? {
    let utf8 = Array(orderId.utf8)
    guard utf8.count == digits + 1, utf8.first == UInt8(ascii: "M") else { return nil }
    var value: UInt64 = 0
    for character in utf8.dropFirst() {
      guard let digit = alphabet.firstIndex(of: character) else { return nil }
      // 13 digits of 5 bits hold 65 bits; a first digit above 15 would overflow 64.
      guard value >> 59 == 0 else { return nil }
      value = value << 5 | UInt64(digit)
    }
    return String(value ^ mask)
  }
}
