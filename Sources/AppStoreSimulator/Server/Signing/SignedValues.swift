import AppStoreServerAPI
import Chronology
import CryptoSupport

/// Signs the server's answers: the current state of each value through the caches, and
/// one-off values (notifications, which describe past instants) directly.
final class SignedValues: Sendable {
  let signer: JWSSigner
  private let transactions: SignedValueCache<JWSTransaction>
  private let renewals: SignedValueCache<JWSRenewalInfo>
  private let appTransactions: SignedValueCache<AppTransaction>

  /// Creates the signer and its caches.
  ///
  /// - Parameters:
  ///   - chain: the chain to sign with.
  ///   - cacheLimit: the most values each cache keeps.
  init(
    chain: CertificateAuthorityChain,
    cacheLimit: Int = SignedValueCache<JWSTransaction>.defaultLimit
  ) {
    signer = JWSSigner(chain: chain)
    transactions = SignedValueCache(limit: cacheLimit)
    renewals = SignedValueCache(limit: cacheLimit)
    appTransactions = SignedValueCache(limit: cacheLimit)
  }

  /// A payload signed now, without caching.
  func sign<Payload: SignedPayload>(_ payload: Payload) throws(CryptoError) -> Verified<Payload> {
    Verified(payload: payload, jws: try signer.sign(payload))
  }

  /// The transaction as it stands at the world's clock.
  func transaction(
    _ transaction: SimulatedTransaction, of snapshot: CustomerSnapshot, factory: PayloadFactory,
    now: Timestamp
  ) throws(CryptoError) -> Verified<JWSTransaction> {
    let modification = snapshot.modifications[transaction.transactionId]
    let key = SignedValueCache<JWSTransaction>.Key(
      id: transaction.transactionId, version: modification?.version ?? 0)
    return try transactions.value(for: key) { () throws(CryptoError) in
      try sign(
        factory.transaction(
          transaction, of: snapshot.customer, at: now, signedDate: modification?.at ?? now))
    }
  }

  /// The renewal information of a subscription as it stands at the world's clock.
  func renewalInfo(
    originalTransactionId: String, of snapshot: CustomerSnapshot, factory: PayloadFactory,
    now: Timestamp
  ) throws(CryptoError) -> Verified<JWSRenewalInfo>? {
    let modification = snapshot.renewalModifications[originalTransactionId]
    let key = SignedValueCache<JWSRenewalInfo>.Key(
      id: originalTransactionId, version: modification?.version ?? 0)
    // Looked up before the payload is made: making it walks the customer's transactions.
    if let cached = renewals.cached(key) { return cached }
    guard
      let payload = factory.renewalInfo(
        originalTransactionId: originalTransactionId, of: snapshot.customer, at: now,
        signedDate: modification?.at ?? now)
    else { return nil }
    return try renewals.value(for: key) { () throws(CryptoError) in try sign(payload) }
  }

  /// The customer's app transaction.
  func appTransaction(of snapshot: CustomerSnapshot, factory: PayloadFactory, now: Timestamp)
    throws(CryptoError) -> Verified<AppTransaction>
  {
    let key = SignedValueCache<AppTransaction>.Key(
      id: snapshot.customer.appTransactionId, version: 0)
    return try appTransactions.value(for: key) { () throws(CryptoError) in
      try sign(factory.appTransaction(of: snapshot.customer, signedDate: now))
    }
  }

  /// How many signed values are cached, for statistics.
  var cachedCount: Int { transactions.count + renewals.count + appTransactions.count }
}
