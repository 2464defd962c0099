import AppStoreServerAPI
import Chronology
import CryptoSupport
import JSON
import MigrationStore

// MARK: - Customers outside the store

extension RefreshStage {
  /// A notification about a customer no account of the store holds — one who first bought
  /// after the migration, say. Listed as unclaimed, with its `appAccountToken` when the purchase
  /// carries one; followed into its account when the token mapping knows the token.
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
    _ = try follow(payload, environment: environment, customerKey: key)
  }
}

extension RefreshStage {
  /// Follows a customer outside the store whose purchase carries an `appAccountToken` the token
  /// mapping knows: the purchase's original transaction id becomes a seed of that account
  /// (`notification`), so the run's backfill fetches the customer and it joins the account.
  ///
  /// - Returns: whether the customer was followed.
  func follow(
    _ payload: NotificationPayload, environment: String, customerKey: String
  ) throws -> Bool {
    let transaction = payload.data?.transaction?.payload
    guard let token = transaction?.appAccountToken,
      let account = options.tokenMapping?.account(owning: token),
      let original = transaction?.originalTransactionId ?? transaction?.transactionId
    else { return false }
    var writer = JSONWriter()
    writer.beginObject()
    writer.field("notification_uuid", payload.notificationUUID)
    writer.field("notification_type", payload.notificationType?.rawValue)
    writer.field("original_transaction_id", original)
    writer.field("app_account_token", token)
    writer.endObject()
    let raw = writer.bytes
    let isNew = try store.storeDiscoveredSeed(
      original, accountId: account, source: "notification",
      sourcePath: "notification history (\(environment))", sourceLine: nil, raw: raw,
      contentSHA256: SHA256.hash(raw), environment: environment,
      now: now().millisecondsSince1970)
    try store.claimUnclaimedCustomer(
      environment: environment, customerKey: customerKey, accountId: account)
    if isNew { summary.followedCustomers += 1 }
    return true
  }
}
