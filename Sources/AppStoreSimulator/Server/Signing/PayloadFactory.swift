import AppStoreServerAPI
import Chronology
import LegacyReceipts

/// Turns the world's facts into the payloads Apple signs, as they stand at an instant: the
/// transaction, the renewal information of a subscription, and the app transaction.
///
/// Every member the API reference lists is filled where it applies and left out where it does
/// not, as Apple does (no `isUpgraded: false`, no revocation members before a revocation).
struct PayloadFactory: Sendable {
  /// The storefront every simulated customer buys in.
  static let storefront = (code: "USA", id: "143441", currency: "USD")
  /// The app version every app transaction names.
  static let applicationVersion = "1"
  /// How long a lapse may last without starting a new `recentSubscriptionStartDate`.
  static let subscriptionLapseLimit = 60 * Timestamp.millisecondsPerDay

  let environment: AppStoreEnvironment
  let bundleId: String
  let appAppleId: Int64
  let products: [String: SimulatedProduct]

  init(environment: SimulatedEnvironment, state: SimulatorState) {
    self.environment = environment == .production ? .production : .sandbox
    bundleId = state.bundleId
    appAppleId = state.appAppleId
    products = state.products
  }

  // MARK: - Transactions

  /// The transaction as it stands at `instant`.
  func transaction(
    _ transaction: SimulatedTransaction, of customer: Customer, at instant: Timestamp,
    signedDate: Timestamp
  ) -> JWSTransaction {
    let revocation = transaction.revocation(at: instant)
    return JWSTransaction(
      transactionId: transaction.transactionId,
      originalTransactionId: transaction.originalTransactionId,
      webOrderLineItemId: transaction.webOrderLineItemId,
      bundleId: bundleId,
      productId: transaction.productId,
      subscriptionGroupIdentifier: transaction.group,
      purchaseDate: transaction.purchaseDate,
      originalPurchaseDate: transaction.originalPurchaseDate,
      expiresDate: transaction.expiresDate,
      quantity: Int(transaction.quantity),
      type: Self.transactionType(transaction.kind),
      appAccountToken: transaction.appAccountToken,
      inAppOwnershipType: Self.ownership(transaction.ownership),
      signedDate: signedDate,
      revocationReason: revocation.map { RevocationReason(rawValue: $0.reason) },
      revocationDate: revocation?.date,
      revocationType: revocation.map { RevocationType(rawValue: $0.kind.rawValue) },
      revocationPercentage: revocation.flatMap(Self.revocationPercentage),
      isUpgraded: transaction.isUpgraded(at: instant) ? true : nil,
      offerType: transaction.offer.map { OfferType(rawValue: $0.type) },
      offerIdentifier: transaction.offer?.identifier,
      offerDiscountType: transaction.offer.map { OfferDiscountType(rawValue: $0.discountType) },
      offerPeriod: transaction.offer?.period,
      environment: environment,
      storefront: Self.storefront.code,
      storefrontId: Self.storefront.id,
      transactionReason: TransactionReason(rawValue: transaction.reason),
      currency: Self.storefront.currency,
      price: transaction.priceMilli,
      appTransactionId: customer.appTransactionId)
  }

  /// Apple sends `revocationPercentage` with every refund: the prorated share, or 100000 (100 %)
  /// for a full refund. Removal from Family Sharing is no refund and carries none.
  static func revocationPercentage(_ revocation: Revocation) -> Int? {
    switch revocation.kind {
    case .refundFull: 100_000
    case .refundProrated: revocation.percentageMilli.map { Int($0) }
    case .familyRevoke: nil
    }
  }

  static func transactionType(_ kind: ProductKind) -> TransactionType {
    switch kind {
    case .autoRenewable: .autoRenewableSubscription
    case .nonConsumable: .nonConsumable
    case .consumable: .consumable
    case .nonRenewing: .nonRenewingSubscription
    }
  }

  static func ownership(_ ownership: OwnershipType) -> InAppOwnershipType {
    switch ownership {
    case .purchased: .purchased
    case .familyShared: .familyShared
    case .other(let text): InAppOwnershipType(rawValue: text)
    }
  }

  // MARK: - Renewal information

  /// The renewal information of the subscription `originalTransactionId` at `instant`, or `nil`
  /// before it began.
  func renewalInfo(
    originalTransactionId: String, of customer: Customer, at instant: Timestamp,
    signedDate: Timestamp
  ) -> JWSRenewalInfo? {
    guard
      let (status, latest, state) = customer.subscriptionStatus(
        originalTransactionId: originalTransactionId, at: instant)
    else { return nil }
    let autoRenews = state?.autoRenewStatus ?? false
    let renewalProduct = state?.autoRenewProductId ?? latest.productId
    // A renewal price only while the subscription is still going to renew; the renewal date
    // (the latest period's expiry) always, as Apple documents it.
    let willRenew = autoRenews && status != .expired && status != .revoked
    let inRetry = state?.isInBillingRetryPeriod ?? false
    return JWSRenewalInfo(
      originalTransactionId: originalTransactionId,
      productId: latest.productId,
      autoRenewProductId: renewalProduct,
      autoRenewStatus: autoRenews ? .on : .off,
      expirationIntent: state?.expirationIntent.map {
        AppStoreServerAPI.ExpirationIntent(rawValue: $0.rawValue)
      },
      isInBillingRetryPeriod: inRetry,
      gracePeriodExpiresDate: inRetry ? state?.gracePeriodExpiresDate : nil,
      priceIncreaseStatus: state?.priceIncreaseStatus.map { PriceIncreaseStatus(rawValue: $0) },
      renewalDate: latest.expiresDate,
      renewalPrice: willRenew ? products[renewalProduct]?.priceMilli : nil,
      currency: willRenew ? Self.storefront.currency : nil,
      recentSubscriptionStartDate: recentStart(
        of: originalTransactionId, in: customer, at: instant),
      signedDate: signedDate,
      environment: environment,
      appAccountToken: latest.appAccountToken,
      appTransactionId: customer.appTransactionId)
  }

  /// The purchase date that begins the latest run of periods without a lapse longer than 60
  /// days.
  private func recentStart(of original: String, in customer: Customer, at instant: Timestamp)
    -> Timestamp?
  {
    let periods = customer.transactions.filter {
      $0.originalTransactionId == original && $0.kind == .autoRenewable
        && $0.purchaseDate <= instant
    }.sorted { ($0.purchaseDate, $0.transactionId) < ($1.purchaseDate, $1.transactionId) }
    guard var start = periods.last?.purchaseDate else { return nil }
    for (earlier, later) in zip(periods.dropLast(), periods.dropFirst()).reversed() {
      let lapse = later.purchaseDate.milliseconds(
        since: earlier.expiresDate ?? earlier.purchaseDate)
      guard lapse <= Self.subscriptionLapseLimit else { break }
      start = earlier.purchaseDate
    }
    return start
  }

  // MARK: - App transaction

  /// The customer's app transaction, created at `signedDate`.
  ///
  /// Apple's signed app transactions carry `receiptCreationDate` and no `signedDate`; verifiers
  /// validate their chain at `receiptCreationDate`, so the simulator leaves `signedDate` out too.
  func appTransaction(of customer: Customer, signedDate: Timestamp) -> AppTransaction {
    AppTransaction(
      receiptType: environment,
      appAppleId: appAppleId,
      bundleId: bundleId,
      applicationVersion: Self.applicationVersion,
      versionExternalIdentifier: environment == .production ? 834_289_833 : 0,
      receiptCreationDate: signedDate,
      originalPurchaseDate: customer.firstSeen,
      originalApplicationVersion: World.originalApplicationVersion,
      appTransactionId: customer.appTransactionId,
      originalPlatform: .iOS,
      signedDate: nil)
  }
}
