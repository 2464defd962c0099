import Chronology
import CompactEncoding

// The order of every part of the compact form. `CompactReader+Response.swift` reads the same
// fields in the same order; a change to one is a change to both and to
// `CompactResponse.formatVersion`.

extension CompactWriter {
  mutating func write(_ response: VerifyReceiptResponse) {
    signed(response.status.rawValue)
    group { fields in
      fields.field(response.environment) { $0.environment($1) }
      fields.field(response.isRetryable) { $0.bool($1) }
      fields.field(response.exception) { $0.string($1) }
      fields.field(response.receipt) { $0.write($1) }
      fields.flag(response.hadLatestReceipt)
      fields.flag(response.shape == .iOS6)
    }
    unsigned(UInt64(response.latestReceiptInfo.count))
    for transaction in response.latestReceiptInfo { write(transaction) }
    unsigned(UInt64(response.pendingRenewalInfo.count))
    for renewal in response.pendingRenewalInfo { write(renewal) }
  }

  mutating func write(_ receipt: AppReceipt) {
    group { fields in
      fields.field(receipt.receiptType) { $0.string($1) }
      fields.field(receipt.bundleId) { $0.string($1) }
      fields.field(receipt.applicationVersion) { $0.string($1) }
      fields.field(receipt.originalApplicationVersion) { $0.string($1) }
      fields.field(receipt.adamId) { $0.signed($1) }
      fields.field(receipt.appItemId) { $0.signed($1) }
      fields.field(receipt.downloadId) { $0.signed($1) }
      fields.field(receipt.versionExternalIdentifier) { $0.signed($1) }
      fields.field(receipt.receiptCreationDate) { $0.timestamp($1) }
      fields.field(receipt.requestDate) { $0.timestamp($1) }
      fields.field(receipt.originalPurchaseDate) { $0.timestamp($1) }
      fields.field(receipt.expirationDate) { $0.timestamp($1) }
      fields.field(receipt.preorderDate) { $0.timestamp($1) }
    }
    unsigned(UInt64(receipt.inApp.count))
    for transaction in receipt.inApp { write(transaction) }
  }

  mutating func write(_ transaction: LegacyTransaction) {
    group { fields in
      fields.field(transaction.transactionId) { $0.string($1) }
      fields.field(transaction.originalTransactionId) { $0.string($1) }
      fields.field(transaction.webOrderLineItemId) { $0.string($1) }
      fields.field(transaction.productId) { $0.string($1) }
      fields.field(transaction.subscriptionGroupIdentifier) { $0.string($1) }
      fields.field(transaction.quantity) { $0.signed($1) }
      fields.field(transaction.purchaseDate) { $0.timestamp($1) }
      fields.field(transaction.originalPurchaseDate) { $0.timestamp($1) }
      fields.field(transaction.expiresDate) { $0.timestamp($1) }
      fields.field(transaction.cancellationDate) { $0.timestamp($1) }
      fields.field(transaction.cancellationReason) { $0.signed($1) }
      fields.field(transaction.isTrialPeriod) { $0.bool($1) }
      fields.field(transaction.isInIntroOfferPeriod) { $0.bool($1) }
      fields.field(transaction.ownershipType) { $0.ownership($1) }
      fields.field(transaction.offerCodeRefName) { $0.string($1) }
      fields.field(transaction.promotionalOfferId) { $0.string($1) }
      fields.field(transaction.appAccountToken) { $0.string($1) }
      fields.flag(transaction.isUpgraded)
      fields.flag(transaction.isIncomplete)
    }
    byte(Self.originCode(transaction.origin))
  }

  mutating func write(_ renewal: LegacyRenewalInfo) {
    group { fields in
      fields.field(renewal.originalTransactionId) { $0.string($1) }
      fields.field(renewal.productId) { $0.string($1) }
      fields.field(renewal.autoRenewProductId) { $0.string($1) }
      fields.field(renewal.autoRenewStatus) { $0.bool($1) }
      fields.field(renewal.expirationIntent) { $0.signed($1.rawValue) }
      fields.field(renewal.isInBillingRetryPeriod) { $0.bool($1) }
      fields.field(renewal.gracePeriodExpiresDate) { $0.timestamp($1) }
      fields.field(renewal.priceConsentStatus) { $0.signed($1) }
      fields.field(renewal.offerCodeRefName) { $0.string($1) }
      fields.field(renewal.promotionalOfferId) { $0.string($1) }
      fields.flag(renewal.isIncomplete)
    }
  }

  // MARK: - Values

  /// `0` production, `1` sandbox, `2` and the text for any other.
  mutating func environment(_ value: ReceiptEnvironment) {
    switch value {
    case .production: byte(0)
    case .sandbox: byte(1)
    case .other(let text):
      byte(2)
      string(text)
    }
  }

  /// `0` purchased, `1` family shared, `2` and the text for any other.
  mutating func ownership(_ value: OwnershipType) {
    switch value {
    case .purchased: byte(0)
    case .familyShared: byte(1)
    case .other(let text):
      byte(2)
      string(text)
    }
  }

  static func originCode(_ origin: TransactionOrigin) -> UInt8 {
    switch origin {
    case .latestReceiptInfo: return 0
    case .latestExpiredReceiptInfo: return 1
    case .inApp: return 2
    case .iOS6Receipt: return 3
    }
  }
}
