import CompactEncoding

// The order of every field of the compact transaction. `CompactReader+Transaction.swift` reads
// the same fields in the same order; a change to one is a change to both and to
// `CompactTransaction.formatVersion`.

extension CompactWriter {
  mutating func write(_ transaction: JWSTransaction) {
    group { fields in
      fields.field(transaction.transactionId) { $0.string($1) }
      fields.field(transaction.originalTransactionId) { $0.string($1) }
      fields.field(transaction.webOrderLineItemId) { $0.string($1) }
      fields.field(transaction.bundleId) { $0.string($1) }
      fields.field(transaction.productId) { $0.string($1) }
      fields.field(transaction.subscriptionGroupIdentifier) { $0.string($1) }
      fields.field(transaction.purchaseDate) { $0.timestamp($1) }
      fields.field(transaction.originalPurchaseDate) { $0.timestamp($1) }
      fields.field(transaction.expiresDate) { $0.timestamp($1) }
      fields.field(transaction.quantity) { $0.signed(Int64($1)) }
      fields.field(transaction.type) { $0.string($1.rawValue) }
      fields.field(transaction.appAccountToken) { $0.string($1) }
      fields.field(transaction.inAppOwnershipType) { $0.string($1.rawValue) }
      fields.field(transaction.signedDate) { $0.timestamp($1) }
      fields.field(transaction.revocationReason) { $0.signed($1.rawValue) }
      fields.field(transaction.revocationDate) { $0.timestamp($1) }
      fields.field(transaction.revocationType) { $0.string($1.rawValue) }
      fields.field(transaction.revocationPercentage) { $0.signed(Int64($1)) }
      fields.field(transaction.isUpgraded) { $0.bool($1) }
      fields.field(transaction.offerType) { $0.signed($1.rawValue) }
      fields.field(transaction.offerIdentifier) { $0.string($1) }
      fields.field(transaction.offerDiscountType) { $0.string($1.rawValue) }
      fields.field(transaction.offerPeriod) { $0.string($1) }
      fields.field(transaction.environment) { $0.string($1.rawValue) }
      fields.field(transaction.storefront) { $0.string($1) }
      fields.field(transaction.storefrontId) { $0.string($1) }
      fields.field(transaction.transactionReason) { $0.string($1.rawValue) }
      fields.field(transaction.currency) { $0.string($1) }
      fields.field(transaction.price) { $0.signed($1) }
      fields.field(transaction.appTransactionId) { $0.string($1) }
      fields.field(transaction.billingPlanType) { $0.string($1.rawValue) }
      fields.field(transaction.commitmentInfo) { $0.write($1) }
    }
  }

  mutating func write(_ commitment: TransactionCommitmentInfo) {
    group { fields in
      fields.field(commitment.billingPeriodNumber) { $0.signed($1) }
      fields.field(commitment.commitmentExpiresDate) { $0.timestamp($1) }
      fields.field(commitment.commitmentPrice) { $0.signed($1) }
      fields.field(commitment.totalBillingPeriods) { $0.signed($1) }
    }
  }
}
