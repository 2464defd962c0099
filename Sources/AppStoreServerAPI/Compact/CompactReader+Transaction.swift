import CompactEncoding

// Reads the fields of the compact transaction in the order `CompactWriter+Transaction.swift`
// writes them.

extension CompactReader {
  mutating func readTransaction() throws(CompactDecodingError) -> JWSTransaction {
    var value = JWSTransaction()
    var mask = try mask(of: 32)
    if mask.next() { value.transactionId = try string() }
    if mask.next() { value.originalTransactionId = try string() }
    if mask.next() { value.webOrderLineItemId = try string() }
    if mask.next() { value.bundleId = try string() }
    if mask.next() { value.productId = try string() }
    if mask.next() { value.subscriptionGroupIdentifier = try string() }
    if mask.next() { value.purchaseDate = try timestamp() }
    if mask.next() { value.originalPurchaseDate = try timestamp() }
    if mask.next() { value.expiresDate = try timestamp() }
    if mask.next() { value.quantity = try int() }
    if mask.next() { value.type = TransactionType(rawValue: try string()) }
    if mask.next() { value.appAccountToken = try string() }
    if mask.next() { value.inAppOwnershipType = InAppOwnershipType(rawValue: try string()) }
    if mask.next() { value.signedDate = try timestamp() }
    if mask.next() { value.revocationReason = RevocationReason(rawValue: try signed()) }
    if mask.next() { value.revocationDate = try timestamp() }
    if mask.next() { value.revocationType = RevocationType(rawValue: try string()) }
    if mask.next() { value.revocationPercentage = try int() }
    if mask.next() { value.isUpgraded = try bool() }
    if mask.next() { value.offerType = OfferType(rawValue: try signed()) }
    if mask.next() { value.offerIdentifier = try string() }
    if mask.next() { value.offerDiscountType = OfferDiscountType(rawValue: try string()) }
    if mask.next() { value.offerPeriod = try string() }
    if mask.next() { value.environment = AppStoreEnvironment(rawValue: try string()) }
    if mask.next() { value.storefront = try string() }
    if mask.next() { value.storefrontId = try string() }
    if mask.next() { value.transactionReason = TransactionReason(rawValue: try string()) }
    if mask.next() { value.currency = try string() }
    if mask.next() { value.price = try signed() }
    if mask.next() { value.appTransactionId = try string() }
    if mask.next() { value.billingPlanType = BillingPlanType(rawValue: try string()) }
    if mask.next() { value.commitmentInfo = try readCommitment() }
    return value
  }

  private mutating func readCommitment() throws(CompactDecodingError) -> TransactionCommitmentInfo {
    var value = TransactionCommitmentInfo()
    var mask = try mask(of: 4)
    if mask.next() { value.billingPeriodNumber = try signed() }
    if mask.next() { value.commitmentExpiresDate = try timestamp() }
    if mask.next() { value.commitmentPrice = try signed() }
    if mask.next() { value.totalBillingPeriods = try signed() }
    return value
  }

  /// A signed integer that must fit `Int` (what the JSON reader accepts for these members).
  private mutating func int() throws(CompactDecodingError) -> Int {
    let value = try signed()
    guard let fitting = Int(exactly: value) else { throw damaged("\(value) does not fit an Int") }
    return fitting
  }
}
