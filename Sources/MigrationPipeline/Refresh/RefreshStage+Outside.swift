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

// MARK: - Invalid notifications about customers outside the store

extension RefreshStage {
  /// The invalid notifications whose payload, read without trust, names a customer the store
  /// did not hold when they were read — a first purchase after the cut-over whose only
  /// notification had a broken signature would otherwise stay unseen. The App Store is asked
  /// about the transaction named (Get Transaction Info, one request each): a customer the store
  /// holds by its verified answer becomes due (`hint`); one outside the store is listed as
  /// unclaimed, and followed into its account when its verified `appAccountToken` resolves
  /// through the token mapping. A transaction the App Store does not know names no one. Nothing
  /// of the invalid payload classifies or links anything.
  ///
  /// - Parameter environment: the environment whose history listed them.
  /// - Throws: `SQLiteError`, `CancellationError`, and authentication failures.
  func lookUpInvalidNotifications(in environment: AppStoreEnvironment) async throws {
    let name = environment.rawValue
    for (key, reason, jws) in try store.invalidNotificationsToLookUp(environment: name) {
      try StopRequest.checkpoint()
      let unverified = UnverifiedNotification.read(jws)
      let stamp = now().millisecondsSince1970
      if let unverified,
        let held = try store.customer(
          appTransactionId: unverified.appTransactionId, orOwningAnyOf: unverified.transactionIds)
      {
        // The store holds the customer since (backfilled after the notification was read).
        try enqueueHint(held, named: unverified, reason: reason)
        try store.markInvalidNotificationLookedUp(key: key, customerId: held, now: stamp)
        continue
      }
      guard let unverified, let id = unverified.transactionId ?? unverified.originalTransactionId
      else {
        try store.markInvalidNotificationLookedUp(key: key, customerId: nil, now: stamp)
        continue
      }
      guard reserveRequest() else { return }
      summary.transactionLookups += 1
      let transaction: JWSTransaction
      do {
        transaction = try await client.transactionInfo(id, environment: environment).payload
      } catch {
        if case .unauthorized = error.kind { throw error }
        if case .cancelled = error.kind { throw CancellationError() }
        if error.errorCode == .transactionIdNotFound {
          try store.markInvalidNotificationLookedUp(key: key, customerId: nil, now: stamp)
          continue
        }
        summary.warnings.append(
          "the \(name) transaction \(id) a notification that failed verification names could not "
            + "be looked up (\(error)); it is asked about again on the next run")
        return
      }
      let ids = [transaction.originalTransactionId, transaction.transactionId].compactMap { $0 }
      if let held = try store.customer(
        appTransactionId: transaction.appTransactionId, orOwningAnyOf: ids)
      {
        try enqueueHint(held, named: unverified, reason: reason)
        try store.markInvalidNotificationLookedUp(key: key, customerId: held, now: stamp)
        continue
      }
      try noteOutsideStore(verified: transaction, environment: name, notification: unverified)
      try store.markInvalidNotificationLookedUp(key: key, customerId: nil, now: stamp)
    }
  }

  /// A customer outside the store, as the App Store's verified answer about a transaction an
  /// invalid notification named shows it: listed as unclaimed (without the notification's type
  /// or date, which nothing vouches for), and followed when its token resolves.
  private func noteOutsideStore(
    verified transaction: JWSTransaction, environment: String,
    notification: UnverifiedNotification
  ) throws {
    let original = transaction.originalTransactionId ?? transaction.transactionId
    guard let key = transaction.appTransactionId ?? original else { return }
    try store.noteUnclaimedCustomer(
      UnclaimedCustomerRow(
        environment: environment, customerKey: key, originalTransactionId: original,
        appAccountToken: transaction.appAccountToken, firstSignedMilliseconds: nil,
        lastSignedMilliseconds: nil, notifications: 1, lastType: nil),
      foundAt: now().millisecondsSince1970)
    guard let token = transaction.appAccountToken, let original else { return }
    var writer = JSONWriter()
    writer.beginObject()
    writer.field("invalid_notification_uuid", notification.notificationUUID)
    writer.field("looked_up_transaction_id", transaction.transactionId)
    writer.field("original_transaction_id", original)
    writer.field("app_account_token", token)
    writer.endObject()
    _ = try follow(
      token: token, originalTransactionId: original, environment: environment, customerKey: key,
      evidence: writer.bytes)
  }
}

extension RefreshStage {
  /// Follows a customer outside the store whose purchase carries an `appAccountToken` the token
  /// mapping knows: the purchase's original transaction id becomes a seed of that account
  /// (`notification`), so the run's backfill fetches the customer and it joins the account.
  ///
  /// - Parameters:
  ///   - payload: the verified notification.
  ///   - environment: the environment whose history listed it.
  ///   - customerKey: the customer's key in the unclaimed list.
  /// - Returns: whether the customer was followed.
  func follow(
    _ payload: NotificationPayload, environment: String, customerKey: String
  ) throws -> Bool {
    let transaction = payload.data?.transaction?.payload
    guard let token = transaction?.appAccountToken,
      let original = transaction?.originalTransactionId ?? transaction?.transactionId
    else { return false }
    var writer = JSONWriter()
    writer.beginObject()
    writer.field("notification_uuid", payload.notificationUUID)
    writer.field("notification_type", payload.notificationType?.rawValue)
    writer.field("original_transaction_id", original)
    writer.field("app_account_token", token)
    writer.endObject()
    return try follow(
      token: token, originalTransactionId: original, environment: environment,
      customerKey: customerKey, evidence: writer.bytes)
  }

  /// Follows the customers earlier runs listed as unclaimed whose token the mapping resolves
  /// now — the team added the mapping, or the account to its mapping file, after they were
  /// listed. Their tokens were read from verified notifications.
  func followUnclaimedCustomers() throws {
    guard options.tokenMapping != nil else { return }
    for row in try store.unclaimedCustomers(stillOutside: true) {
      guard let token = row.appAccountToken, let original = row.originalTransactionId,
        options.environment.map({ $0.rawValue == row.environment }) ?? true
      else { continue }
      var writer = JSONWriter()
      writer.beginObject()
      writer.field("unclaimed_customer", row.customerKey)
      writer.field("original_transaction_id", original)
      writer.field("app_account_token", token)
      writer.field("notifications", row.notifications)
      writer.endObject()
      _ = try follow(
        token: token, originalTransactionId: original, environment: row.environment,
        customerKey: row.customerKey, evidence: writer.bytes)
    }
  }

  /// Stores a customer's original transaction id as a seed (`notification`) of the account
  /// the mapping gives its token, and marks the customer claimed by it.
  ///
  /// - Returns: whether the mapping knows the token.
  private func follow(
    token: String, originalTransactionId original: String, environment: String,
    customerKey: String, evidence raw: [UInt8]
  ) throws -> Bool {
    guard let account = options.tokenMapping?.account(owning: token) else { return false }
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
