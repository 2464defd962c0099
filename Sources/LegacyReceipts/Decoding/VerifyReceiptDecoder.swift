import Chronology
import JSON

/// Decodes stored verifyReceipt responses straight from bytes into ``VerifyReceiptResponse``,
/// in one pass, without an intermediate tree.
///
/// Scalars are read leniently (string, number or boolean for every field), 64-bit integers
/// never pass through `Double`, `*_ms` fields win over date strings, unknown fields are skipped,
/// and the iOS 6 layout is normalised into the modern model. Objects or arrays where a scalar
/// belongs are errors that name the field.
public enum VerifyReceiptDecoder {
  /// A decoded document and the `account_id` it carried at its top level, if any (directories
  /// of stored responses sometimes keep the team's account id inside each file).
  public struct Document: Sendable {
    /// The normalised response.
    public var response: VerifyReceiptResponse
    /// The top-level `account_id`, when present.
    public var accountId: String?
  }

  /// Decodes one complete document holding a verifyReceipt response.
  ///
  /// - Parameter bytes: the document's UTF-8 bytes.
  /// - Returns: the response and any top-level `account_id`.
  /// - Throws: ``LegacyDecodingError`` naming the field and the reason.
  public static func decode(_ bytes: UnsafeRawBufferPointer) throws -> Document {
    var reader = JSONReader(bytes)
    let document = try decodeResponse(from: &reader, in: bytes)
    do {
      try reader.finish()
    } catch {
      throw LegacyDecodingError(.json(error))
    }
    return document
  }

  /// Decodes a response object at the reader's position (used for the `response` member of
  /// NDJSON records as well as whole files).
  ///
  /// - Parameters:
  ///   - reader: a reader positioned before the object.
  ///   - bytes: the buffer the reader reads, for deferred date parsing.
  /// - Returns: the response and any top-level `account_id`.
  /// - Throws: ``LegacyDecodingError``.
  public static func decodeResponse(
    from reader: inout JSONReader, in bytes: UnsafeRawBufferPointer
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
        switch key {
        case "status":
          field = "status"
          status = try reader.readLenientInt64()
        case "environment":
          field = "environment"
          response.environment = try reader.readLenientString().map(ReceiptEnvironment.init)
        case "is_retryable", "is-retryable":
          field = key.description
          response.isRetryable = try reader.readLenientBool()
        case "exception":
          field = "exception"
          response.exception = try reader.readLenientString()
        case "latest_receipt":
          field = "latest_receipt"
          // Skipped, never copied: the base64 receipt must not travel into reports or logs.
          response.hadLatestReceipt = try !reader.readNullIfPresent()
          if response.hadLatestReceipt { try reader.skipValue() }
        case "receipt":
          field = "receipt"
          try decodeReceipt(from: &reader, in: bytes, into: &response)
        case "latest_receipt_info":
          field = "latest_receipt_info"
          response.latestReceiptInfo += try decodeTransactions(
            from: &reader, in: bytes, origin: .latestReceiptInfo)
        case "latest_expired_receipt_info":
          field = "latest_expired_receipt_info"
          response.latestReceiptInfo += try decodeTransactions(
            from: &reader, in: bytes, origin: .latestExpiredReceiptInfo)
        case "pending_renewal_info":
          field = "pending_renewal_info"
          hasPendingRenewalInfo = true
          response.pendingRenewalInfo = try decodeRenewalInfos(from: &reader, in: bytes)
        case "account_id":
          field = "account_id"
          accountId = try reader.readLenientString()
        // The iOS 6 layout keeps the renewal state at the top level.
        case "auto_renew_status":
          field = "auto_renew_status"
          ios6Renewal.autoRenewStatus = try reader.readLenientBool()
          hasIOS6Renewal = true
        case "auto_renew_product_id":
          field = "auto_renew_product_id"
          ios6Renewal.autoRenewProductId = try reader.readLenientString()
          hasIOS6Renewal = true
        case "expiration_intent":
          field = "expiration_intent"
          ios6Renewal.expirationIntent = try reader.readLenientInt64().map(ExpirationIntent.init)
          hasIOS6Renewal = true
        case "is_in_billing_retry_period":
          field = "is_in_billing_retry_period"
          ios6Renewal.isInBillingRetryPeriod = try reader.readLenientBool()
          hasIOS6Renewal = true
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
    into response: inout VerifyReceiptResponse
  ) throws {
    if try reader.readNullIfPresent() { return }
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
    do {
      try reader.beginObject()
      while let key = try reader.nextKey() {
        field = key.description
        switch key {
        case "in_app":
          hasInApp = true
          receipt.inApp = try decodeTransactions(from: &reader, in: bytes, origin: .inApp)
        case "receipt_type": receipt.receiptType = try reader.readLenientString()
        case "bundle_id": receipt.bundleId = try reader.readLenientString()
        case "bid":
          looksLikeIOS6 = true
          receipt.bundleId = try reader.readLenientString()
        case "application_version": receipt.applicationVersion = try reader.readLenientString()
        case "bvrs":
          looksLikeIOS6 = true
          receipt.applicationVersion = try reader.readLenientString()
        case "original_application_version":
          receipt.originalApplicationVersion = try reader.readLenientString()
        case "adam_id": receipt.adamId = try reader.readLenientInt64()
        case "item_id":
          looksLikeIOS6 = true
          receipt.adamId = try reader.readLenientInt64()
        case "app_item_id": receipt.appItemId = try reader.readLenientInt64()
        case "download_id": receipt.downloadId = try reader.readLenientInt64()
        case "version_external_identifier":
          receipt.versionExternalIdentifier = try reader.readLenientInt64()
        case "receipt_creation_date_ms": creation.milliseconds = try reader.readLenientInt64()
        case "receipt_creation_date": creation.text = try reader.skipValue()
        case "receipt_creation_date_pst": creation.alternative = try reader.skipValue()
        case "request_date_ms": request.milliseconds = try reader.readLenientInt64()
        case "request_date": request.text = try reader.skipValue()
        case "request_date_pst": request.alternative = try reader.skipValue()
        case "expiration_date_ms": expiration.milliseconds = try reader.readLenientInt64()
        case "expiration_date": expiration.text = try reader.skipValue()
        case "expiration_date_pst": expiration.alternative = try reader.skipValue()
        case "preorder_date_ms": preorder.milliseconds = try reader.readLenientInt64()
        case "preorder_date": preorder.text = try reader.skipValue()
        case "preorder_date_pst": preorder.alternative = try reader.skipValue()
        // The same keys are the app's first purchase in the modern layout and the
        // transaction's in the iOS 6 one: keep both readings.
        case "original_purchase_date_ms":
          let value = try reader.readLenientInt64()
          appOriginalPurchase.milliseconds = value
          dates.originalPurchase.milliseconds = value
        case "original_purchase_date":
          let range = try reader.skipValue()
          appOriginalPurchase.text = range
          dates.originalPurchase.text = range
        case "original_purchase_date_pst":
          let range = try reader.skipValue()
          appOriginalPurchase.alternative = range
          dates.originalPurchase.alternative = range
        default:
          var interner = StringInterner()
          if try !decodeTransactionField(
            key, from: &reader, into: &transaction, dates: &dates, interner: &interner)
          {
            try reader.skipValue()
          }
        }
        field = nil
      }
      receipt.receiptCreationDate = try creation.resolve(in: bytes, field: "receipt_creation_date")
      receipt.requestDate = try request.resolve(in: bytes, field: "request_date")
      receipt.expirationDate = try expiration.resolve(in: bytes, field: "expiration_date")
      receipt.preorderDate = try preorder.resolve(in: bytes, field: "preorder_date")
      // A receipt that is itself a transaction (and has no `in_app`) is the iOS 6 layout.
      looksLikeIOS6 =
        !hasInApp
        && (looksLikeIOS6 || transaction.transactionId != nil || transaction.productId != nil)
      if looksLikeIOS6 {
        response.shape = .iOS6
        try dates.apply(to: &transaction, in: bytes)
        receipt.inApp = [transaction]
      } else {
        receipt.originalPurchaseDate = try appOriginalPurchase.resolve(
          in: bytes, field: "original_purchase_date")
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
  /// `latest_receipt_info`).
  private static func decodeTransactions(
    from reader: inout JSONReader, in bytes: UnsafeRawBufferPointer, origin: TransactionOrigin
  ) throws -> [LegacyTransaction] {
    var interner = StringInterner()
    switch try reader.peekKind() {
    case .null:
      _ = try reader.readNullIfPresent()
      return []
    case .object:
      return [try decodeTransaction(from: &reader, in: bytes, origin: origin, interner: &interner)]
    case .array:
      var transactions: [LegacyTransaction] = []
      var index = 0
      try reader.beginArray()
      while try reader.nextElement() {
        do {
          transactions.append(
            try decodeTransaction(from: &reader, in: bytes, origin: origin, interner: &interner))
        } catch let error as LegacyDecodingError {
          throw error.prefixed("[\(index)]")
        }
        index += 1
      }
      return transactions
    default:
      throw JSONError(
        .typeMismatch(expected: "an array or object of transactions", found: try reader.peekKind()),
        at: reader.offset)
    }
  }

  private static func decodeTransaction(
    from reader: inout JSONReader, in bytes: UnsafeRawBufferPointer, origin: TransactionOrigin,
    interner: inout StringInterner
  ) throws -> LegacyTransaction {
    var transaction = LegacyTransaction(origin: origin)
    var dates = TransactionDates()
    var field: JSONKey?
    do {
      try reader.beginObject()
      while let key = try reader.nextKey() {
        field = key
        if try !decodeTransactionField(
          key, from: &reader, into: &transaction, dates: &dates, interner: &interner)
        {
          try reader.skipValue()
        }
        field = nil
      }
    } catch {
      throw LegacyDecodingError(.json(error), path: field.map { [$0.description] } ?? [])
    }
    try dates.apply(to: &transaction, in: bytes)
    return transaction
  }

  /// Reads one transaction field if `key` is one; returns `false` (consuming nothing) if not.
  private static func decodeTransactionField(
    _ key: JSONKey, from reader: inout JSONReader, into transaction: inout LegacyTransaction,
    dates: inout TransactionDates, interner: inout StringInterner
  ) throws(JSONError) -> Bool {
    switch key {
    case "transaction_id": transaction.transactionId = try reader.readLenientString()
    case "original_transaction_id":
      transaction.originalTransactionId = try reader.readLenientString()
    case "web_order_line_item_id": transaction.webOrderLineItemId = try reader.readLenientString()
    case "product_id": transaction.productId = try interner.readLenientString(&reader)
    case "subscription_group_identifier":
      transaction.subscriptionGroupIdentifier = try interner.readLenientString(&reader)
    case "quantity": transaction.quantity = try reader.readLenientInt64()
    case "purchase_date_ms": dates.purchase.milliseconds = try reader.readLenientInt64()
    case "purchase_date": dates.purchase.text = try reader.skipValue()
    case "purchase_date_pst": dates.purchase.alternative = try reader.skipValue()
    case "original_purchase_date_ms":
      dates.originalPurchase.milliseconds = try reader.readLenientInt64()
    case "original_purchase_date": dates.originalPurchase.text = try reader.skipValue()
    case "original_purchase_date_pst": dates.originalPurchase.alternative = try reader.skipValue()
    case "expires_date_ms": dates.expires.milliseconds = try reader.readLenientInt64()
    // iOS 6: `expires_date` holds epoch milliseconds; the text is in `expires_date_formatted`.
    case "expires_date": dates.expires.text = try reader.skipValue()
    case "expires_date_formatted": dates.expires.alternative = try reader.skipValue()
    case "expires_date_pst", "expires_date_formatted_pst":
      if dates.expires.alternative == nil {
        dates.expires.alternative = try reader.skipValue()
      } else {
        try reader.skipValue()
      }
    case "cancellation_date_ms": dates.cancellation.milliseconds = try reader.readLenientInt64()
    case "cancellation_date": dates.cancellation.text = try reader.skipValue()
    case "cancellation_date_pst": dates.cancellation.alternative = try reader.skipValue()
    case "cancellation_reason": transaction.cancellationReason = try reader.readLenientInt64()
    case "is_trial_period": transaction.isTrialPeriod = try reader.readLenientBool()
    case "is_in_intro_offer_period": transaction.isInIntroOfferPeriod = try reader.readLenientBool()
    case "is_upgraded": transaction.isUpgraded = try reader.readLenientBool() ?? false
    case "in_app_ownership_type":
      transaction.ownershipType = try reader.readLenientString().map(OwnershipType.init)
    case "offer_code_ref_name": transaction.offerCodeRefName = try reader.readLenientString()
    case "promotional_offer_id": transaction.promotionalOfferId = try reader.readLenientString()
    case "app_account_token": transaction.appAccountToken = try reader.readLenientString()
    default: return false
    }
    return true
  }

  // MARK: - Renewal info

  private static func decodeRenewalInfos(
    from reader: inout JSONReader, in bytes: UnsafeRawBufferPointer
  ) throws -> [LegacyRenewalInfo] {
    switch try reader.peekKind() {
    case .null:
      _ = try reader.readNullIfPresent()
      return []
    case .object:
      return [try decodeRenewalInfo(from: &reader, in: bytes)]
    default:
      var infos: [LegacyRenewalInfo] = []
      var index = 0
      try reader.beginArray()
      while try reader.nextElement() {
        do {
          infos.append(try decodeRenewalInfo(from: &reader, in: bytes))
        } catch let error as LegacyDecodingError {
          throw error.prefixed("[\(index)]")
        }
        index += 1
      }
      return infos
    }
  }

  private static func decodeRenewalInfo(
    from reader: inout JSONReader, in bytes: UnsafeRawBufferPointer
  ) throws -> LegacyRenewalInfo {
    var info = LegacyRenewalInfo()
    var grace = DateSlot()
    var field: JSONKey?
    do {
      try reader.beginObject()
      while let key = try reader.nextKey() {
        field = key
        switch key {
        case "original_transaction_id": info.originalTransactionId = try reader.readLenientString()
        case "product_id": info.productId = try reader.readLenientString()
        case "auto_renew_product_id": info.autoRenewProductId = try reader.readLenientString()
        case "auto_renew_status": info.autoRenewStatus = try reader.readLenientBool()
        case "expiration_intent":
          info.expirationIntent = try reader.readLenientInt64().map(ExpirationIntent.init)
        case "is_in_billing_retry_period":
          info.isInBillingRetryPeriod = try reader.readLenientBool()
        case "grace_period_expires_date_ms": grace.milliseconds = try reader.readLenientInt64()
        case "grace_period_expires_date": grace.text = try reader.skipValue()
        case "grace_period_expires_date_pst": grace.alternative = try reader.skipValue()
        case "price_consent_status": info.priceConsentStatus = try reader.readLenientInt64()
        case "offer_code_ref_name": info.offerCodeRefName = try reader.readLenientString()
        case "promotional_offer_id": info.promotionalOfferId = try reader.readLenientString()
        default: try reader.skipValue()
        }
        field = nil
      }
    } catch {
      throw LegacyDecodingError(.json(error), path: field.map { [$0.description] } ?? [])
    }
    info.gracePeriodExpiresDate = try grace.resolve(in: bytes, field: "grace_period_expires_date")
    return info
  }
}

/// The four date fields of a transaction while it is being read.
private struct TransactionDates {
  var purchase = DateSlot()
  var originalPurchase = DateSlot()
  var expires = DateSlot()
  var cancellation = DateSlot()

  func apply(to transaction: inout LegacyTransaction, in bytes: UnsafeRawBufferPointer) throws {
    transaction.purchaseDate = try purchase.resolve(in: bytes, field: "purchase_date")
    transaction.originalPurchaseDate = try originalPurchase.resolve(
      in: bytes, field: "original_purchase_date")
    transaction.expiresDate = try expires.resolve(in: bytes, field: "expires_date")
    transaction.cancellationDate = try cancellation.resolve(in: bytes, field: "cancellation_date")
  }
}
