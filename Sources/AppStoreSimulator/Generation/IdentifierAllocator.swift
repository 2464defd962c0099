/// Hands out the ids of one customer: transaction ids, web order line item ids and the app
/// transaction id, unique across the world and shaped like Apple's (16-digit production ids,
/// short sandbox ids, 18-digit app transaction ids).
struct IdentifierAllocator {
  private let base: Int64
  private let webOrderBase: Int64
  private var next: Int64 = 1

  /// The customer's `appTransactionId`.
  let appTransactionId: String

  init(customer index: Int, environment: SimulatedEnvironment) {
    let customer = Int64(index)
    switch environment {
    case .production:
      base = 2_000_000_000_000_000 + customer * 10_000
      webOrderBase = 600_000_000_000_000 + customer * 10_000
    case .sandbox:
      base = 2_000_000_000 + customer * 1000
      webOrderBase = 300_000_000 + customer * 1000
    }
    appTransactionId = String(704_000_000_000_000_000 + customer * 1000 + 7)
  }

  /// The number of the customer whose allocator hands out an id shaped like `id` — the
  /// allocation read backwards. Being shaped like a customer's id does not make it one:
  /// callers check that the customer owns it.
  ///
  /// - Parameter id: a transaction, original transaction or app transaction id.
  /// - Returns: the customer's number in the whole world, or `nil` for an id of no such shape.
  static func customerNumber(owning id: String) -> Int? {
    guard let value = Int64(id) else { return nil }
    switch value {
    case 704_000_000_000_000_000...:
      let rest = value - 704_000_000_000_000_000
      return rest % 1000 == 7 ? Int(rest / 1000) : nil
    case 2_000_000_000_000_001...:
      return Int((value - 2_000_000_000_000_001) / 10_000)
    case 2_000_000_001...:
      return Int((value - 2_000_000_001) / 1000)
    default:
      return nil
    }
  }

  /// Moves past every id already handed out, so that ids made later for the same customer (a
  /// timeline extended past the world's clock) never repeat one.
  ///
  /// - Parameter used: the customer's transaction ids so far.
  mutating func skip(past used: [String]) {
    for id in used {
      guard let value = Int64(id), value > base, value - base >= next else { continue }
      next = value - base + 1
    }
  }

  /// The next transaction id and its matching web order line item id.
  mutating func transactionId() -> (transactionId: String, webOrderLineItemId: String) {
    defer { next += 1 }
    return (String(base + next), String(webOrderBase + next))
  }
}
