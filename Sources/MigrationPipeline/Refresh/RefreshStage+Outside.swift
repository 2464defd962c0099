import AppStoreServerAPI
import Chronology
import MigrationStore

// MARK: - Customers outside the store

extension RefreshStage {
  /// A notification about a customer no account of the store holds — one who first bought
  /// after the migration, say. Listed as unclaimed, with its `appAccountToken` when the purchase
  /// carries one.
  ///
  /// - Parameters:
  ///   - payload: the verified notification.
  ///   - environment: the environment whose history listed it.
  func noteOutsideStore(_ payload: NotificationPayload, environment: String) throws {
    let transaction = payload.data?.transaction?.payload
    let renewal = payload.data?.renewalInfo?.payload
    let original = transaction?.originalTransactionId ?? renewal?.originalTransactionId
    guard
      let key = transaction?.appTransactionId ?? renewal?.appTransactionId ?? original
    else { return }
    let kind = [payload.notificationType?.rawValue, payload.subtype?.rawValue].compactMap { $0 }
      .joined(separator: "/")
    let signed = payload.signedDate?.millisecondsSince1970
    try store.noteUnclaimedCustomer(
      UnclaimedCustomerRow(
        environment: environment, customerKey: key, originalTransactionId: original,
        appAccountToken: transaction?.appAccountToken, firstSignedMilliseconds: signed,
        lastSignedMilliseconds: signed, notifications: 1, lastType: kind.isEmpty ? nil : kind),
      foundAt: now().millisecondsSince1970)
  }
}
