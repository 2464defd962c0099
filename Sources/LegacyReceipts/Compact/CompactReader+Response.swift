import Chronology

// Reads the parts of the compact form in the order `CompactWriter+Response.swift` writes them.

extension CompactReader {
  /// The presence bits of one group, consumed one field at a time.
  private struct Mask {
    var bits: UInt64

    /// Whether the next field is present.
    mutating func next() -> Bool {
      defer { bits >>= 1 }
      return bits & 1 == 1
    }

    /// Whether any bit beyond the group's fields is set (the bytes are not ours).
    func hasBitsBeyond(_ count: Int) -> Bool {
      count < 64 && bits >> UInt64(count) != 0
    }
  }

  /// Reads a group's mask and checks it names no field the group does not have.
  private mutating func mask(of fieldCount: Int) throws(CompactResponseError) -> Mask {
    let mask = Mask(bits: try unsigned())
    guard !mask.hasBitsBeyond(fieldCount) else {
      throw damaged("a field mask naming fields beyond the \(fieldCount) of its group")
    }
    return mask
  }

  mutating func readResponse() throws(CompactResponseError) -> VerifyReceiptResponse {
    var response = VerifyReceiptResponse(status: ReceiptStatus(rawValue: try signed()))
    var mask = try mask(of: 6)
    if mask.next() { response.environment = try environment() }
    if mask.next() { response.isRetryable = try bool() }
    if mask.next() { response.exception = try string() }
    if mask.next() { response.receipt = try readReceipt() }
    response.hadLatestReceipt = mask.next()
    response.shape = mask.next() ? .iOS6 : .modern
    response.latestReceiptInfo = try list { reader throws(CompactResponseError) in
      try reader.readTransaction()
    }
    response.pendingRenewalInfo = try list { reader throws(CompactResponseError) in
      try reader.readRenewal()
    }
    return response
  }

  private mutating func readReceipt() throws(CompactResponseError) -> AppReceipt {
    var receipt = AppReceipt()
    var mask = try mask(of: 13)
    if mask.next() { receipt.receiptType = try string() }
    if mask.next() { receipt.bundleId = try string() }
    if mask.next() { receipt.applicationVersion = try string() }
    if mask.next() { receipt.originalApplicationVersion = try string() }
    if mask.next() { receipt.adamId = try signed() }
    if mask.next() { receipt.appItemId = try signed() }
    if mask.next() { receipt.downloadId = try signed() }
    if mask.next() { receipt.versionExternalIdentifier = try signed() }
    if mask.next() { receipt.receiptCreationDate = try timestamp() }
    if mask.next() { receipt.requestDate = try timestamp() }
    if mask.next() { receipt.originalPurchaseDate = try timestamp() }
    if mask.next() { receipt.expirationDate = try timestamp() }
    if mask.next() { receipt.preorderDate = try timestamp() }
    receipt.inApp = try list { reader throws(CompactResponseError) in
      try reader.readTransaction()
    }
    return receipt
  }

  private mutating func readTransaction() throws(CompactResponseError) -> LegacyTransaction {
    var mask = try mask(of: 18)
    // The origin is written after the fields; the transaction is built with a placeholder
    // and given its origin once read.
    var transaction = LegacyTransaction(origin: .inApp)
    if mask.next() { transaction.transactionId = try string() }
    if mask.next() { transaction.originalTransactionId = try string() }
    if mask.next() { transaction.webOrderLineItemId = try string() }
    if mask.next() { transaction.productId = try string() }
    if mask.next() { transaction.subscriptionGroupIdentifier = try string() }
    if mask.next() { transaction.quantity = try signed() }
    if mask.next() { transaction.purchaseDate = try timestamp() }
    if mask.next() { transaction.originalPurchaseDate = try timestamp() }
    if mask.next() { transaction.expiresDate = try timestamp() }
    if mask.next() { transaction.cancellationDate = try timestamp() }
    if mask.next() { transaction.cancellationReason = try signed() }
    if mask.next() { transaction.isTrialPeriod = try bool() }
    if mask.next() { transaction.isInIntroOfferPeriod = try bool() }
    if mask.next() { transaction.ownershipType = try ownership() }
    if mask.next() { transaction.offerCodeRefName = try string() }
    if mask.next() { transaction.promotionalOfferId = try string() }
    if mask.next() { transaction.appAccountToken = try string() }
    transaction.isUpgraded = mask.next()
    transaction.origin = try origin()
    return transaction
  }

  private mutating func readRenewal() throws(CompactResponseError) -> LegacyRenewalInfo {
    var renewal = LegacyRenewalInfo()
    var mask = try mask(of: 10)
    if mask.next() { renewal.originalTransactionId = try string() }
    if mask.next() { renewal.productId = try string() }
    if mask.next() { renewal.autoRenewProductId = try string() }
    if mask.next() { renewal.autoRenewStatus = try bool() }
    if mask.next() { renewal.expirationIntent = ExpirationIntent(rawValue: try signed()) }
    if mask.next() { renewal.isInBillingRetryPeriod = try bool() }
    if mask.next() { renewal.gracePeriodExpiresDate = try timestamp() }
    if mask.next() { renewal.priceConsentStatus = try signed() }
    if mask.next() { renewal.offerCodeRefName = try string() }
    if mask.next() { renewal.promotionalOfferId = try string() }
    return renewal
  }

  // MARK: - Values

  /// A count, then that many items.
  private mutating func list<Item>(
    _ item: (inout CompactReader) throws(CompactResponseError) -> Item
  ) throws(CompactResponseError) -> [Item] {
    let count = try count()
    var items: [Item] = []
    items.reserveCapacity(count)
    for _ in 0..<count { items.append(try item(&self)) }
    return items
  }

  private mutating func bool() throws(CompactResponseError) -> Bool {
    switch try byte() {
    case 0: return false
    case 1: return true
    case let other: throw damaged("\(other) where a flag of 0 or 1 belongs")
    }
  }

  private mutating func timestamp() throws(CompactResponseError) -> Timestamp {
    Timestamp(millisecondsSince1970: try signed())
  }

  private mutating func environment() throws(CompactResponseError) -> ReceiptEnvironment {
    switch try byte() {
    case 0: return .production
    case 1: return .sandbox
    case 2: return .other(try string())
    case let other: throw damaged("environment code \(other)")
    }
  }

  private mutating func ownership() throws(CompactResponseError) -> OwnershipType {
    switch try byte() {
    case 0: return .purchased
    case 1: return .familyShared
    case 2: return .other(try string())
    case let other: throw damaged("ownership code \(other)")
    }
  }

  private mutating func origin() throws(CompactResponseError) -> TransactionOrigin {
    switch try byte() {
    case 0: return .latestReceiptInfo
    case 1: return .latestExpiredReceiptInfo
    case 2: return .inApp
    case 3: return .iOS6Receipt
    case let other: throw damaged("transaction origin code \(other)")
    }
  }
}
