import Chronology
import JSON

/// Decodes stored verifyReceipt responses straight from bytes into ``VerifyReceiptResponse``,
/// in one pass, without an intermediate tree.
///
/// Scalars are read leniently (string, number or boolean for every field), 64-bit integers
/// never pass through `Double`, `*_ms` fields win over date strings, unknown fields are skipped,
/// and the iOS 6 layout is normalised into the modern model.
///
/// Damage is kept to the field it is in: a value of the wrong type, a date in no known format,
/// a masked or malformed transaction id is set aside with its path and reason
/// (``Document/setAside``) and the rest of the response is read. A transaction or renewal
/// whose set-aside field is one the old logic reads (a date, the product, the upgrade flag) is
/// marked ``LegacyTransaction/isIncomplete`` so that the old logic does not guess without it;
/// its ids still count. Only JSON that cannot be read, and a `status` that cannot be read, fail
/// the whole document.
public enum VerifyReceiptDecoder {
  /// A decoded document and the `account_id` it carried at its top level, if any (directories
  /// of stored responses sometimes keep the team's account id inside each file).
  public struct Document: Sendable {
    /// The normalised response.
    public var response: VerifyReceiptResponse
    /// The top-level `account_id`, when present.
    public var accountId: String?
    /// The fields that could not be used, in reading order.
    public var setAside: [SetAsideField] = []
  }

  /// Decodes one complete document holding a verifyReceipt response.
  ///
  /// - Parameter bytes: the document's UTF-8 bytes.
  /// - Returns: the response, any top-level `account_id` and the fields set aside.
  /// - Throws: ``LegacyDecodingError`` naming the field and the reason.
  public static func decode(_ bytes: UnsafeRawBufferPointer) throws -> Document {
    var reader = JSONReader(bytes)
    var damage = DamageCollector()
    var document = try decodeResponse(from: &reader, in: bytes, damage: &damage)
    do {
      try reader.finish()
    } catch {
      throw LegacyDecodingError(.json(error))
    }
    document.setAside = damage.fields
    return document
  }

  /// Decodes a response object at the reader's position (used for the `response` member of
  /// NDJSON records as well as whole files).
  ///
  /// - Parameters:
  ///   - reader: a reader positioned before the object.
  ///   - bytes: the buffer the reader reads, for deferred date parsing.
  /// - Returns: the response, any top-level `account_id` and the fields set aside (their paths
  ///   relative to the response).
  /// - Throws: ``LegacyDecodingError``.
  public static func decodeResponse(
    from reader: inout JSONReader, in bytes: UnsafeRawBufferPointer
  ) throws -> Document {
    var damage = DamageCollector()
    var document = try decodeResponse(from: &reader, in: bytes, damage: &damage)
    document.setAside = damage.fields
    return document
  }

  /// Decodes a response object, noting set-aside fields in `damage` (whose path names where the
  /// response sits in its record).
  static func decodeResponse(
    from reader: inout JSONReader, in bytes: UnsafeRawBufferPointer,
    damage: inout DamageCollector
  ) throws -> Document {
    var status: Int64?
    var response = VerifyReceiptResponse(status: .valid)
    var accountId: String?
    var ios6Renewal = LegacyRenewalInfo()
    var hasIOS6Renewal = false
    var hasPendingRenewalInfo = false
    var field: String?
    do {
      try reader.beginObject()
      while let key = try reader.nextKey() {
        field = key.description
        switch key {
        case "status":
          // The one field without which nothing else means anything: not set aside, refused.
          status = try reader.readLenientInt64()
        case "environment":
          response.environment = try damage.string("environment", from: &reader, in: bytes).map(
            ReceiptEnvironment.init)
        case "is_retryable":
          response.isRetryable = try damage.flag("is_retryable", from: &reader, in: bytes)
        case "is-retryable":
          response.isRetryable = try damage.flag("is-retryable", from: &reader, in: bytes)
        case "exception":
          response.exception = try damage.string("exception", from: &reader, in: bytes)
        case "latest_receipt":
          // Skipped, never copied: the base64 receipt must not travel into reports or logs.
          response.hadLatestReceipt = try !reader.readNullIfPresent()
          if response.hadLatestReceipt { try reader.skipValue() }
        case "receipt":
          try decodeReceipt(from: &reader, in: bytes, into: &response, damage: &damage)
        case "latest_receipt_info":
          response.latestReceiptInfo += try decodeTransactions(
            "latest_receipt_info", from: &reader, in: bytes, origin: .latestReceiptInfo,
            damage: &damage)
        case "latest_expired_receipt_info":
          response.latestReceiptInfo += try decodeTransactions(
            "latest_expired_receipt_info", from: &reader, in: bytes,
            origin: .latestExpiredReceiptInfo, damage: &damage)
        case "pending_renewal_info":
          hasPendingRenewalInfo = true
          response.pendingRenewalInfo = try decodeRenewalInfos(
            from: &reader, in: bytes, damage: &damage)
        case "account_id":
          accountId = try damage.string("account_id", from: &reader, in: bytes)
        // The iOS 6 layout keeps the renewal state at the top level.
        case "auto_renew_status", "auto_renew_product_id", "expiration_intent",
          "is_in_billing_retry_period":
          hasIOS6Renewal = true
          var noGrace = DateSlot()
          try decodeRenewalField(
            key, from: &reader, in: bytes, into: &ios6Renewal, grace: &noGrace,
            readsGrace: false, damage: &damage)
        default:
          try reader.skipValue()
        }
        field = nil
      }
    } catch let error as JSONError {
      throw LegacyDecodingError(.json(error), path: field.map { [$0] } ?? [])
    } catch let error as LegacyDecodingError {
      throw field.map { error.prefixed($0) } ?? error
    }
    guard let status else {
      throw LegacyDecodingError(
        .missingField("not a verifyReceipt response: it has no 'status' field"))
    }
    response.status = ReceiptStatus(rawValue: status)
    if hasIOS6Renewal && !hasPendingRenewalInfo {
      // Attach the top-level renewal state to the subscription it describes: the latest one.
      let latest = (response.latestReceiptInfo + (response.receipt?.inApp ?? []))
        .filter { $0.expiresDate != nil }
        .max {
          ($0.expiresDate ?? Timestamp(millisecondsSince1970: .min))
            < ($1.expiresDate ?? Timestamp(millisecondsSince1970: .min))
        }
      ios6Renewal.originalTransactionId = latest?.originalTransactionId
      ios6Renewal.productId = latest?.productId
      response.pendingRenewalInfo = [ios6Renewal]
    }
    return Document(response: response, accountId: accountId)
  }

  // MARK: - Receipt

  /// Reads `receipt`, which is the app receipt in the modern layout and a single transaction
  /// in the iOS 6 one; both readings are collected and the layout decided at the end.
  private static func decodeReceipt(
    from reader: inout JSONReader, in bytes: UnsafeRawBufferPointer,
    into response: inout VerifyReceiptResponse, damage: inout DamageCollector
  ) throws {
    if try reader.readNullIfPresent() { return }
    guard try reader.peekKind() == .object else {
      try damage.skipWrongKind("receipt", from: &reader, in: bytes, expected: "an object")
      return
    }
    damage.enter("receipt")
    defer { damage.leave() }
    var receipt = AppReceipt()
    var transaction = LegacyTransaction(origin: .iOS6Receipt)
    var dates = TransactionDates()
    var creation = DateSlot()
    var request = DateSlot()
    var appOriginalPurchase = DateSlot()
    var expiration = DateSlot()
    var preorder = DateSlot()
    var hasInApp = false
    var looksLikeIOS6 = false
    var field: String?
    var interner = StringInterner()
    do {
      try reader.beginObject()
      while let key = try reader.nextKey() {
        field = key.description
        func text(_ name: StaticString, _ reader: inout JSONReader) throws(JSONError) -> String? {
          try damage.string(name, from: &reader, in: bytes)
        }
        func integer(_ name: StaticString, _ reader: inout JSONReader) throws(JSONError) -> Int64? {
          try damage.integer(name, from: &reader, in: bytes)
        }
        switch key {
        case "in_app":
          hasInApp = true
          receipt.inApp = try decodeTransactions(
            "in_app", from: &reader, in: bytes, origin: .inApp, damage: &damage)
        case "receipt_type": receipt.receiptType = try text("receipt_type", &reader)
        case "bundle_id": receipt.bundleId = try text("bundle_id", &reader)
        case "bid":
          looksLikeIOS6 = true
          receipt.bundleId = try text("bid", &reader)
        case "application_version":
          receipt.applicationVersion = try text("application_version", &reader)
        case "bvrs":
          looksLikeIOS6 = true
          receipt.applicationVersion = try text("bvrs", &reader)
        case "original_application_version":
          receipt.originalApplicationVersion = try text("original_application_version", &reader)
        case "adam_id": receipt.adamId = try integer("adam_id", &reader)
        case "item_id":
          looksLikeIOS6 = true
          receipt.adamId = try integer("item_id", &reader)
        case "app_item_id": receipt.appItemId = try integer("app_item_id", &reader)
        case "download_id": receipt.downloadId = try integer("download_id", &reader)
        case "version_external_identifier":
          receipt.versionExternalIdentifier = try integer("version_external_identifier", &reader)
        case "receipt_creation_date_ms":
          try creation.readMilliseconds("receipt_creation_date_ms", &reader, bytes, &damage)
        case "receipt_creation_date": creation.text = try reader.skipValue()
        case "receipt_creation_date_pst": creation.alternative = try reader.skipValue()
        case "request_date_ms":
          try request.readMilliseconds("request_date_ms", &reader, bytes, &damage)
        case "request_date": request.text = try reader.skipValue()
        case "request_date_pst": request.alternative = try reader.skipValue()
        case "expiration_date_ms":
          try expiration.readMilliseconds("expiration_date_ms", &reader, bytes, &damage)
        case "expiration_date": expiration.text = try reader.skipValue()
        case "expiration_date_pst": expiration.alternative = try reader.skipValue()
        case "preorder_date_ms":
          try preorder.readMilliseconds("preorder_date_ms", &reader, bytes, &damage)
        case "preorder_date": preorder.text = try reader.skipValue()
        case "preorder_date_pst": preorder.alternative = try reader.skipValue()
        // The same keys are the app's first purchase in the modern layout and the
        // transaction's in the iOS 6 one: keep both readings.
        case "original_purchase_date_ms":
          try appOriginalPurchase.readMilliseconds(
            "original_purchase_date_ms", &reader, bytes, &damage)
          dates.originalPurchase.milliseconds = appOriginalPurchase.milliseconds
          dates.originalPurchase.isDamaged = appOriginalPurchase.isDamaged
        case "original_purchase_date":
          let range = try reader.skipValue()
          appOriginalPurchase.text = range
          dates.originalPurchase.text = range
        case "original_purchase_date_pst":
          let range = try reader.skipValue()
          appOriginalPurchase.alternative = range
          dates.originalPurchase.alternative = range
        default:
          if try !decodeTransactionField(
            key, from: &reader, in: bytes, into: &transaction, dates: &dates,
            interner: &interner, damage: &damage)
          {
            try reader.skipValue()
          }
        }
        field = nil
      }
      receipt.receiptCreationDate =
        creation.resolve(
          in: bytes, field: "receipt_creation_date", damage: &damage
        ).instant
      receipt.requestDate =
        request.resolve(in: bytes, field: "request_date", damage: &damage)
        .instant
      receipt.expirationDate =
        expiration.resolve(
          in: bytes, field: "expiration_date", damage: &damage
        ).instant
      receipt.preorderDate =
        preorder.resolve(in: bytes, field: "preorder_date", damage: &damage)
        .instant
      // A receipt that is itself a transaction (and has no `in_app`) is the iOS 6 layout.
      looksLikeIOS6 =
        !hasInApp
        && (looksLikeIOS6 || transaction.transactionId != nil || transaction.productId != nil)
      if looksLikeIOS6 {
        response.shape = .iOS6
        dates.apply(to: &transaction, in: bytes, damage: &damage)
        receipt.inApp = [transaction]
      } else {
        receipt.originalPurchaseDate =
          appOriginalPurchase.resolve(in: bytes, field: "original_purchase_date", damage: &damage)
          .instant
      }
    } catch let error as JSONError {
      throw LegacyDecodingError(.json(error), path: field.map { [$0] } ?? [])
    } catch let error as LegacyDecodingError {
      throw field.map { error.prefixed($0) } ?? error
    }
    response.receipt = receipt
  }

  // MARK: - Transactions

  /// Reads an array of transactions, or a single transaction object (the iOS 6 layout of
  /// `latest_receipt_info`). A member that is neither, and an element that is not an object,
  /// is set aside.
  private static func decodeTransactions(
    _ name: StaticString, from reader: inout JSONReader, in bytes: UnsafeRawBufferPointer,
    origin: TransactionOrigin, damage: inout DamageCollector
  ) throws -> [LegacyTransaction] {
    var interner = StringInterner()
    switch try reader.peekKind() {
    case .null:
      _ = try reader.readNullIfPresent()
      return []
    case .object:
      damage.enter(name)
      defer { damage.leave() }
      return [
        try decodeTransaction(
          from: &reader, in: bytes, origin: origin, interner: &interner, damage: &damage)
      ]
    case .array:
      damage.enter(name)
      defer { damage.leave() }
      var transactions: [LegacyTransaction] = []
      var index = 0
      try reader.beginArray()
      while try reader.nextElement() {
        damage.enter(element: index)
        defer { damage.leave() }
        do {
          if try reader.peekKind() == .object {
            transactions.append(
              try decodeTransaction(
                from: &reader, in: bytes, origin: origin, interner: &interner, damage: &damage))
          } else {
            try damage.skipWrongKind(nil, from: &reader, in: bytes, expected: "a transaction")
          }
        } catch let error as LegacyDecodingError {
          throw error.prefixed("[\(index)]")
        }
        index += 1
      }
      return transactions
    default:
      try damage.skipWrongKind(
        name, from: &reader, in: bytes, expected: "an array or object of transactions")
      return []
    }
  }

  private static func decodeTransaction(
    from reader: inout JSONReader, in bytes: UnsafeRawBufferPointer, origin: TransactionOrigin,
    interner: inout StringInterner, damage: inout DamageCollector
  ) throws -> LegacyTransaction {
    var transaction = LegacyTransaction(origin: origin)
    var dates = TransactionDates()
    var field: JSONKey?
    do {
      try reader.beginObject()
      while let key = try reader.nextKey() {
        field = key
        if try !decodeTransactionField(
          key, from: &reader, in: bytes, into: &transaction, dates: &dates, interner: &interner,
          damage: &damage)
        {
          try reader.skipValue()
        }
        field = nil
      }
    } catch {
      throw LegacyDecodingError(.json(error), path: field.map { [$0.description] } ?? [])
    }
    dates.apply(to: &transaction, in: bytes, damage: &damage)
    return transaction
  }

  /// Reads one transaction field if `key` is one; returns `false` (consuming nothing) if not.
  /// A set-aside field the old logic reads marks the transaction incomplete.
  private static func decodeTransactionField(
    _ key: JSONKey, from reader: inout JSONReader, in bytes: UnsafeRawBufferPointer,
    into transaction: inout LegacyTransaction, dates: inout TransactionDates,
    interner: inout StringInterner, damage: inout DamageCollector
  ) throws(JSONError) -> Bool {
    // Field names are static text, spelled out only when a value is set aside: this runs for
    // every field of every transaction.
    func text(_ name: StaticString, _ reader: inout JSONReader) throws(JSONError) -> String? {
      try damage.string(name, from: &reader, in: bytes)
    }
    func integer(_ name: StaticString, _ reader: inout JSONReader) throws(JSONError) -> Int64? {
      try damage.integer(name, from: &reader, in: bytes)
    }
    func flag(_ name: StaticString, _ reader: inout JSONReader) throws(JSONError) -> Bool? {
      try damage.flag(name, from: &reader, in: bytes)
    }
    /// What the old logic needs: without it, the transaction is not evaluated.
    func critical() {
      if damage.lastWasSetAside { transaction.isIncomplete = true }
    }
    switch key {
    case "transaction_id":
      transaction.transactionId = try damage.identifier("transaction_id", from: &reader, in: bytes)
    case "original_transaction_id":
      transaction.originalTransactionId = try damage.identifier(
        "original_transaction_id", from: &reader, in: bytes)
    case "web_order_line_item_id":
      transaction.webOrderLineItemId = try text("web_order_line_item_id", &reader)
    case "product_id":
      transaction.productId = try damage.string(
        "product_id", from: &reader, in: bytes, interner: &interner)
      critical()
    case "subscription_group_identifier":
      transaction.subscriptionGroupIdentifier = try damage.string(
        "subscription_group_identifier", from: &reader, in: bytes, interner: &interner)
      critical()
    case "quantity": transaction.quantity = try integer("quantity", &reader)
    case "purchase_date_ms":
      try dates.purchase.readMilliseconds("purchase_date_ms", &reader, bytes, &damage)
    case "purchase_date": dates.purchase.text = try reader.skipValue()
    case "purchase_date_pst": dates.purchase.alternative = try reader.skipValue()
    case "original_purchase_date_ms":
      try dates.originalPurchase.readMilliseconds(
        "original_purchase_date_ms", &reader, bytes, &damage)
    case "original_purchase_date": dates.originalPurchase.text = try reader.skipValue()
    case "original_purchase_date_pst": dates.originalPurchase.alternative = try reader.skipValue()
    case "expires_date_ms":
      try dates.expires.readMilliseconds("expires_date_ms", &reader, bytes, &damage)
    // iOS 6: `expires_date` holds epoch milliseconds; the text is in `expires_date_formatted`.
    case "expires_date": dates.expires.text = try reader.skipValue()
    case "expires_date_formatted":
      dates.expires.alternative = try reader.skipValue()
      dates.expires.alternativeSuffix = "_formatted"
    case "expires_date_pst", "expires_date_formatted_pst":
      if dates.expires.alternative == nil {
        dates.expires.alternative = try reader.skipValue()
        dates.expires.alternativeSuffix = key == "expires_date_pst" ? "_pst" : "_formatted_pst"
      } else {
        try reader.skipValue()
      }
    case "cancellation_date_ms":
      try dates.cancellation.readMilliseconds("cancellation_date_ms", &reader, bytes, &damage)
    case "cancellation_date": dates.cancellation.text = try reader.skipValue()
    case "cancellation_date_pst": dates.cancellation.alternative = try reader.skipValue()
    case "cancellation_reason":
      transaction.cancellationReason = try integer("cancellation_reason", &reader)
    case "is_trial_period": transaction.isTrialPeriod = try flag("is_trial_period", &reader)
    case "is_in_intro_offer_period":
      transaction.isInIntroOfferPeriod = try flag("is_in_intro_offer_period", &reader)
    case "is_upgraded":
      transaction.isUpgraded = try flag("is_upgraded", &reader) ?? false
      critical()
    case "in_app_ownership_type":
      transaction.ownershipType = try text("in_app_ownership_type", &reader).map(OwnershipType.init)
      critical()
    case "offer_code_ref_name":
      transaction.offerCodeRefName = try text("offer_code_ref_name", &reader)
    case "promotional_offer_id":
      transaction.promotionalOfferId = try text("promotional_offer_id", &reader)
    case "app_account_token": transaction.appAccountToken = try text("app_account_token", &reader)
    default: return false
    }
    return true
  }

  // MARK: - Renewal info

  private static func decodeRenewalInfos(
    from reader: inout JSONReader, in bytes: UnsafeRawBufferPointer,
    damage: inout DamageCollector
  ) throws -> [LegacyRenewalInfo] {
    let name: StaticString = "pending_renewal_info"
    switch try reader.peekKind() {
    case .null:
      _ = try reader.readNullIfPresent()
      return []
    case .object:
      damage.enter(name)
      defer { damage.leave() }
      return [try decodeRenewalInfo(from: &reader, in: bytes, damage: &damage)]
    case .array:
      damage.enter(name)
      defer { damage.leave() }
      var infos: [LegacyRenewalInfo] = []
      var index = 0
      try reader.beginArray()
      while try reader.nextElement() {
        damage.enter(element: index)
        defer { damage.leave() }
        do {
          if try reader.peekKind() == .object {
            infos.append(try decodeRenewalInfo(from: &reader, in: bytes, damage: &damage))
          } else {
            try damage.skipWrongKind(nil, from: &reader, in: bytes, expected: "renewal info")
          }
        } catch let error as LegacyDecodingError {
          throw error.prefixed("[\(index)]")
        }
        index += 1
      }
      return infos
    default:
      try damage.skipWrongKind(
        name, from: &reader, in: bytes, expected: "an array of renewal info")
      return []
    }
  }

  private static func decodeRenewalInfo(
    from reader: inout JSONReader, in bytes: UnsafeRawBufferPointer,
    damage: inout DamageCollector
  ) throws -> LegacyRenewalInfo {
    var info = LegacyRenewalInfo()
    var grace = DateSlot()
    var field: JSONKey?
    do {
      try reader.beginObject()
      while let key = try reader.nextKey() {
        field = key
        try decodeRenewalField(
          key, from: &reader, in: bytes, into: &info, grace: &grace, readsGrace: true,
          damage: &damage)
        field = nil
      }
    } catch {
      throw LegacyDecodingError(.json(error), path: field.map { [$0.description] } ?? [])
    }
    let resolved = grace.resolve(in: bytes, field: "grace_period_expires_date", damage: &damage)
    info.gracePeriodExpiresDate = resolved.instant
    if resolved.isUnusable { info.isIncomplete = true }
    return info
  }

  /// Reads one renewal field (skipping any other member); a set-aside field the old logic
  /// reads marks the renewal incomplete. The iOS 6 top level has no grace period
  /// (`readsGrace` is `false` there).
  private static func decodeRenewalField(
    _ key: JSONKey, from reader: inout JSONReader, in bytes: UnsafeRawBufferPointer,
    into info: inout LegacyRenewalInfo, grace: inout DateSlot, readsGrace: Bool,
    damage: inout DamageCollector
  ) throws(JSONError) {
    func text(_ name: StaticString, _ reader: inout JSONReader) throws(JSONError) -> String? {
      try damage.string(name, from: &reader, in: bytes)
    }
    func flag(_ name: StaticString, _ reader: inout JSONReader) throws(JSONError) -> Bool? {
      try damage.flag(name, from: &reader, in: bytes)
    }
    func critical() {
      if damage.lastWasSetAside { info.isIncomplete = true }
    }
    switch key {
    case "original_transaction_id":
      info.originalTransactionId = try damage.identifier(
        "original_transaction_id", from: &reader, in: bytes)
    case "product_id": info.productId = try text("product_id", &reader)
    case "auto_renew_product_id":
      info.autoRenewProductId = try text("auto_renew_product_id", &reader)
    case "auto_renew_status":
      info.autoRenewStatus = try flag("auto_renew_status", &reader)
      critical()
    case "expiration_intent":
      info.expirationIntent = try damage.integer("expiration_intent", from: &reader, in: bytes).map(
        ExpirationIntent.init)
      critical()
    case "is_in_billing_retry_period":
      info.isInBillingRetryPeriod = try flag("is_in_billing_retry_period", &reader)
      critical()
    case "grace_period_expires_date_ms" where readsGrace:
      try grace.readMilliseconds("grace_period_expires_date_ms", &reader, bytes, &damage)
    case "grace_period_expires_date" where readsGrace:
      grace.text = try reader.skipValue()
    case "grace_period_expires_date_pst" where readsGrace:
      grace.alternative = try reader.skipValue()
    case "price_consent_status":
      info.priceConsentStatus = try damage.integer("price_consent_status", from: &reader, in: bytes)
    case "offer_code_ref_name": info.offerCodeRefName = try text("offer_code_ref_name", &reader)
    case "promotional_offer_id": info.promotionalOfferId = try text("promotional_offer_id", &reader)
    default: try reader.skipValue()
    }
  }
}

/// The four date fields of a transaction while it is being read.
private struct TransactionDates {
  var purchase = DateSlot()
  var originalPurchase = DateSlot()
  var expires = DateSlot()
  var cancellation = DateSlot()

  /// Resolves the dates into the transaction; a date the old logic reads that is set aside
  /// (and has no usable other spelling) marks it incomplete.
  func apply(
    to transaction: inout LegacyTransaction, in bytes: UnsafeRawBufferPointer,
    damage: inout DamageCollector
  ) {
    let purchase = purchase.resolve(in: bytes, field: "purchase_date", damage: &damage)
    let original = originalPurchase.resolve(
      in: bytes, field: "original_purchase_date", damage: &damage)
    let expires = expires.resolve(in: bytes, field: "expires_date", damage: &damage)
    let cancellation = cancellation.resolve(in: bytes, field: "cancellation_date", damage: &damage)
    transaction.purchaseDate = purchase.instant
    transaction.originalPurchaseDate = original.instant
    transaction.expiresDate = expires.instant
    transaction.cancellationDate = cancellation.instant
    if purchase.isUnusable || expires.isUnusable || cancellation.isUnusable {
      transaction.isIncomplete = true
    }
  }
}
