import Chronology
import CompactEncoding

// Reads the parts of the compact form in the order `CompactWriter+Response.swift` writes them.

extension CompactReader {
  mutating func readResponse() throws(CompactDecodingError) -> VerifyReceiptResponse {
    var response = VerifyReceiptResponse(status: ReceiptStatus(rawValue: try signed()))
    var mask = try mask(of: 6)
    if mask.next() { response.environment = try environment() }
    if mask.next() { response.isRetryable = try bool() }
    if mask.next() { response.exception = try string() }
    if mask.next() { response.receipt = try readReceipt() }
    response.hadLatestReceipt = mask.next()
    response.shape = mask.next() ? .iOS6 : .modern
    response.latestReceiptInfo = try list { reader throws(CompactDecodingError) in
      try reader.readTransaction()
    }
    response.pendingRenewalInfo = try list { reader throws(CompactDecodingError) in
      try reader.readRenewal()
    }
    return response
  }

  private mutating func readReceipt() throws(CompactDecodingError) -> AppReceipt {
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
    receipt.inApp = try list { reader throws(CompactDecodingError) in
      try reader.readTransaction()
    }
    return receipt
  }

  private mutating func readTransaction() throws(CompactDecodingError) -> LegacyTransaction {
    var mask = try mask(of: 19)
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
    transaction.isIncomplete = mask.next()
    transaction.origin = try origin()
    return transaction
  }

  private mutating func readRenewal() throws(CompactDecodingError) -> LegacyRenewalInfo {
    var renewal = LegacyRenewalInfo()
    var mask = try mask(of: 11)
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
    renewal.isIncomplete = mask.next()
    return renewal
  }

  // MARK: - Values

  private mutating func environment() throws(CompactDecodingError) -> ReceiptEnvironment {
    switch try byte() {
    case 0: return .production
    case 1: return .sandbox
    case 2: return .other(try string())
    case let other: throw damaged("environment code \(other)")
    }
  }

  private mutating func ownership() throws(CompactDecodingError) -> OwnershipType {
    switch try byte() {
    case 0: return .purchased
    case 1: return .familyShared
    case 2: return .other(try string())
    case let other: throw damaged("ownership code \(other)")
    }
  }

  private mutating func origin() throws(CompactDecodingError) -> TransactionOrigin {
    switch try byte() {
    case 0: return .latestReceiptInfo
    case 1: return .latestExpiredReceiptInfo
    case 2: return .inApp
    case 3: return .iOS6Receipt
    case let other: throw damaged("transaction origin code \(other)")
    }
  }
}
