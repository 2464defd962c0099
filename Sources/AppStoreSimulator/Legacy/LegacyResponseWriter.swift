import Chronology
import JSON
import LegacyReceipts

/// Writes the verifyReceipt response Apple would have returned for a customer's receipt at a
/// capture instant, in the shape a ``LegacySnapshot`` asks for — the legacy data the team
/// stored. Only facts true at the capture instant appear: later renewals, refunds and upgrades
/// do not, a prorated refund never does (it has no legacy form), and family-shared purchases
/// appear only once the customer restored purchases.
public struct LegacyResponseWriter: Sendable {
  /// The world the customers live in.
  public let world: World

  /// Creates a writer.
  ///
  /// - Parameter world: the world.
  public init(world: World) {
    self.world = world
  }

  /// The base64 `latest_receipt` every response carries: opaque bytes that must never reach a
  /// report.
  static let latestReceipt: String = {
    var text = "MIIT"
    var state: UInt64 = 0x5EED
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    while text.count < 2048 {
      state = state &* 6_364_136_223_846_793_005 &+ 1
      text.append(alphabet[Int(state >> 58)])
    }
    return text
  }()

  /// The response JSON for a snapshot.
  ///
  /// - Parameter snapshot: whose receipt, when, in which shape.
  /// - Returns: the compact JSON text.
  public func response(for snapshot: LegacySnapshot) -> String {
    let customer = world.customers[snapshot.customer]
    var writer = JSONWriter()
    switch snapshot.style {
    case .errorStatus:
      writer.beginObject()
      writer.field("status", snapshot.status ?? 21002)
      writer.field("environment", customer.environment.rawValue)
      if (21100...21199).contains(snapshot.status ?? 0) { writer.field("is_retryable", true) }
      writer.endObject()
    case .iOS6:
      writeIOS6(customer, snapshot, into: &writer)
    case .modern, .rawReceipt:
      writeModern(customer, snapshot, into: &writer)
    case .appTransactionIdOnly, .orderIdOnly:
      // The team stored no response for these: only an id (see `GeneratedArchive`).
      return ""
    }
    return writer.string
  }

  /// The transaction whose order id an order-id-only record names: the customer's first
  /// purchase of its own by the capture instant (a family-shared one is no order of the
  /// member's).
  ///
  /// - Parameters:
  ///   - customer: whose order.
  ///   - instant: the capture instant.
  /// - Returns: the transaction, or `nil` when the customer paid for nothing by then.
  public func orderTransaction(of customer: Customer, at instant: Timestamp)
    -> SimulatedTransaction?
  {
    customer.transactions.first { $0.purchaseDate <= instant && $0.ownership != .familyShared }
  }

  /// The transactions a receipt at `instant` holds: everything bought by then except finished
  /// consumables, and family-shared purchases only after a restore.
  ///
  /// - Parameters:
  ///   - customer: whose receipt.
  ///   - instant: the capture instant.
  /// - Returns: the transactions, in purchase order.
  public func visibleTransactions(of customer: Customer, at instant: Timestamp)
    -> [SimulatedTransaction]
  {
    visibleTransactions(of: customer, at: instant, unfinishedConsumables: false)
  }

  /// The transactions a snapshot's receipt holds: ``visibleTransactions(of:at:)``, and the
  /// consumables of the hour before the capture when the app had not finished them yet.
  ///
  /// - Parameter snapshot: the record.
  /// - Returns: the transactions, in purchase order.
  public func visibleTransactions(of snapshot: LegacySnapshot) -> [SimulatedTransaction] {
    visibleTransactions(
      of: world.customers[snapshot.customer], at: snapshot.capturedAt,
      unfinishedConsumables: snapshot.holdsUnfinishedConsumables)
  }

  /// How long before a capture an unfinished consumable was bought.
  static let unfinishedConsumableWindow = Timestamp.millisecondsPerHour

  private func visibleTransactions(
    of customer: Customer, at instant: Timestamp, unfinishedConsumables: Bool
  ) -> [SimulatedTransaction] {
    customer.transactions.filter { transaction in
      guard transaction.purchaseDate <= instant else { return false }
      if transaction.kind == .consumable {
        // Finished consumables leave the receipt; one the app has not finished yet is there.
        guard unfinishedConsumables,
          instant.milliseconds(since: transaction.purchaseDate) <= Self.unfinishedConsumableWindow
        else { return false }
      }
      if transaction.ownership == .familyShared {
        guard let restored = customer.restoredPurchasesAt, restored <= instant else { return false }
      }
      return true
    }
  }

  // MARK: - Modern layout

  private func writeModern(
    _ customer: Customer, _ snapshot: LegacySnapshot, into writer: inout JSONWriter
  ) {
    let instant = snapshot.capturedAt
    let visible = visibleTransactions(of: snapshot)
    let subscriptions = visible.filter { $0.kind == .autoRenewable }
    var latest = subscriptions.sorted {
      ($0.purchaseDate, $0.transactionId) > ($1.purchaseDate, $1.transactionId)
    }
    if snapshot.excludesOldTransactions {
      var seen = Set<String>()
      latest = latest.filter { seen.insert($0.originalTransactionId).inserted }
    }
    if snapshot.duplicatesEntries, let first = latest.first {
      latest.insert(first, at: min(1, latest.count))
      if latest.count > 3 { latest.append(latest[2]) }
    }
    if snapshot.listsOldestFirst { latest.reverse() }
    // `in_app` is unordered in real data; a fixed shuffle keeps the bytes deterministic.
    let inApp = visible.enumerated().sorted {
      ($0.offset * 7919) % max(visible.count, 1) < ($1.offset * 7919) % max(visible.count, 1)
    }
    .map(\.element)
    let numbers = snapshot.usesJSONNumbers

    writer.beginObject()
    writer.field("status", 0)
    writer.field("environment", customer.environment.rawValue)
    writer.key("receipt")
    writer.beginObject()
    writer.field(
      "receipt_type", customer.environment == .production ? "Production" : "ProductionSandbox")
    writeInteger(
      &writer, "adam_id", customer.environment == .production ? world.appAppleId : 0, numbers)
    writeInteger(
      &writer, "app_item_id", customer.environment == .production ? world.appAppleId : 0, numbers)
    writer.field("bundle_id", world.bundleId)
    writer.field("application_version", "512")
    writeInteger(
      &writer, "download_id", 90_071_992_547_409_000 + Int64(world.number(of: customer)), numbers)
    writeInteger(
      &writer, "version_external_identifier",
      866_000_000 + Int64(world.number(of: customer) % 1000), numbers)
    writeDate(
      &writer, "receipt_creation_date",
      instant.adding(milliseconds: -Timestamp.millisecondsPerMinute), numbers)
    writeDate(&writer, "request_date", instant, numbers)
    writeDate(&writer, "original_purchase_date", customer.firstSeen, numbers)
    writer.field("original_application_version", World.originalApplicationVersion)
    writer.key("in_app")
    writer.beginArray()
    for transaction in inApp {
      writeTransaction(transaction, customer, snapshot, group: false, into: &writer)
    }
    writer.endArray()
    writer.endObject()
    if !subscriptions.isEmpty {
      writer.key("latest_receipt_info")
      writer.beginArray()
      for transaction in latest {
        writeTransaction(transaction, customer, snapshot, group: true, into: &writer)
      }
      writer.endArray()
      writer.field("latest_receipt", Self.latestReceipt)
      writer.key("pending_renewal_info")
      writer.beginArray()
      for original in Set(subscriptions.map(\.originalTransactionId)).sorted() {
        writeRenewalInfo(customer, original: original, at: instant, numbers: numbers, into: &writer)
      }
      writer.endArray()
    }
    writer.endObject()
  }

  private func writeTransaction(
    _ transaction: SimulatedTransaction, _ customer: Customer, _ snapshot: LegacySnapshot,
    group: Bool,
    into writer: inout JSONWriter
  ) {
    let instant = snapshot.capturedAt
    let numbers = snapshot.usesJSONNumbers
    writer.beginObject()
    writeInteger(&writer, "quantity", transaction.quantity, numbers)
    writer.field("product_id", transaction.productId)
    writeIdentifier(&writer, "transaction_id", transaction.transactionId, numbers)
    writeIdentifier(&writer, "original_transaction_id", transaction.originalTransactionId, numbers)
    writeDate(&writer, "purchase_date", transaction.purchaseDate, numbers)
    writeDate(&writer, "original_purchase_date", transaction.originalPurchaseDate, numbers)
    if transaction.kind == .autoRenewable, let expires = transaction.expiresDate {
      writeDate(&writer, "expires_date", expires, numbers)
    }
    if let webOrder = transaction.webOrderLineItemId {
      writeIdentifier(&writer, "web_order_line_item_id", webOrder, numbers)
    }
    if transaction.kind == .autoRenewable {
      let trial = transaction.offer?.type == 1 && transaction.offer?.discountType == "FREE_TRIAL"
      let intro = transaction.offer?.type == 1 && !trial
      writeBoolean(&writer, "is_trial_period", trial, numbers, style: .trueFalse)
      writeBoolean(&writer, "is_in_intro_offer_period", intro, numbers, style: .trueFalse)
    }
    if let upgraded = transaction.upgradedAt, upgraded <= instant {
      if !snapshot.marksUpgradesByCancellation {
        writeBoolean(&writer, "is_upgraded", true, numbers, style: .trueFalse)
      }
      writeDate(&writer, "cancellation_date", upgraded, numbers)
      writeInteger(&writer, "cancellation_reason", 0, numbers)
    } else if let revocation = transaction.revocation(at: instant),
      revocation.kind != .refundProrated
    {
      writeDate(&writer, "cancellation_date", revocation.date, numbers)
      writeInteger(&writer, "cancellation_reason", revocation.reason, numbers)
    }
    writer.field("in_app_ownership_type", transaction.ownership.description)
    if let offer = transaction.offer {
      if offer.type == 2, let identifier = offer.identifier {
        writer.field("promotional_offer_id", identifier)
      }
      if offer.type == 3, let identifier = offer.identifier {
        writer.field("offer_code_ref_name", identifier)
      }
    }
    if let token = transaction.appAccountToken { writer.field("app_account_token", token) }
    if group, let subscriptionGroup = transaction.group {
      writer.field("subscription_group_identifier", subscriptionGroup)
    }
    writer.endObject()
  }

  private func writeRenewalInfo(
    _ customer: Customer, original: String, at instant: Timestamp, numbers: Bool,
    into writer: inout JSONWriter
  ) {
    guard
      let state = customer.renewals.first(where: { $0.originalTransactionId == original })?.state(
        at: instant),
      let current = customer.transactions.last(where: {
        $0.originalTransactionId == original && $0.purchaseDate <= instant
      })
    else { return }
    writer.beginObject()
    writer.field("auto_renew_product_id", state.autoRenewProductId)
    writer.field("product_id", current.productId)
    writeIdentifier(&writer, "original_transaction_id", original, numbers)
    writeBoolean(&writer, "auto_renew_status", state.autoRenewStatus, numbers, style: .oneZero)
    if let intent = state.expirationIntent {
      writeInteger(&writer, "expiration_intent", intent.rawValue, numbers)
    }
    if state.isInBillingRetryPeriod || state.expirationIntent != nil {
      writeBoolean(
        &writer, "is_in_billing_retry_period", state.isInBillingRetryPeriod, numbers,
        style: .oneZero)
    }
    if state.isInBillingRetryPeriod, let grace = state.gracePeriodExpiresDate {
      writeDate(&writer, "grace_period_expires_date", grace, numbers)
    }
    if let consent = state.priceIncreaseStatus {
      writeInteger(&writer, "price_consent_status", consent, numbers)
    }
    writer.endObject()
  }

  // MARK: - iOS 6 layout

  /// The iOS 6 layout: `receipt` is the first transaction, `latest_receipt_info` the latest one
  /// (or `latest_expired_receipt_info` once it has expired, with status 21006), the renewal
  /// state at the top level, and no request date (the record's `captured_at` dates it).
  private func writeIOS6(
    _ customer: Customer, _ snapshot: LegacySnapshot, into writer: inout JSONWriter
  ) {
    let instant = snapshot.capturedAt
    let subscriptions = visibleTransactions(of: customer, at: instant).filter {
      $0.kind == .autoRenewable
    }
    guard let first = subscriptions.first, let last = subscriptions.last else {
      writer.beginObject()
      writer.field("status", 21002)
      writer.endObject()
      return
    }
    let expired = (last.expiresDate ?? .distantPast) <= instant
    writer.beginObject()
    writer.field("status", expired ? 21006 : 0)
    writer.key("receipt")
    writeIOS6Transaction(first, into: &writer)
    writer.key(expired ? "latest_expired_receipt_info" : "latest_receipt_info")
    writeIOS6Transaction(last, into: &writer)
    if !expired { writer.field("latest_receipt", Self.latestReceipt) }
    if let state = customer.renewals.first(where: {
      $0.originalTransactionId == last.originalTransactionId
    })?.state(at: instant) {
      writer.field("auto_renew_status", state.autoRenewStatus ? 1 : 0)
      writer.field("auto_renew_product_id", state.autoRenewProductId)
      if let intent = state.expirationIntent {
        writer.field("expiration_intent", String(intent.rawValue))
      }
      if state.isInBillingRetryPeriod || state.expirationIntent != nil {
        writer.field("is_in_billing_retry_period", state.isInBillingRetryPeriod ? "1" : "0")
      }
    }
    writer.endObject()
  }

  private func writeIOS6Transaction(
    _ transaction: SimulatedTransaction, into writer: inout JSONWriter
  ) {
    writer.beginObject()
    writer.field("bid", world.bundleId)
    writer.field("bvrs", "3.1")
    writer.field("item_id", String(world.appAppleId))
    writer.field("product_id", transaction.productId)
    writer.field("transaction_id", transaction.transactionId)
    writer.field("original_transaction_id", transaction.originalTransactionId)
    writer.field("quantity", "1")
    writeDate(&writer, "purchase_date", transaction.purchaseDate, false)
    writeDate(&writer, "original_purchase_date", transaction.originalPurchaseDate, false)
    if let expires = transaction.expiresDate {
      writer.field("expires_date", String(expires.millisecondsSince1970))
      writer.field("expires_date_formatted", LegacyDateFormatter.gmt(expires))
    }
    if let webOrder = transaction.webOrderLineItemId {
      writer.field("web_order_line_item_id", webOrder)
    }
    writer.endObject()
  }

  // MARK: - Field spellings

  private enum BooleanStyle {
    case trueFalse, oneZero
  }

  private func writeDate(
    _ writer: inout JSONWriter, _ name: String, _ instant: Timestamp, _ numbers: Bool
  ) {
    writer.field(name, LegacyDateFormatter.gmt(instant))
    if numbers {
      writer.field(name + "_ms", instant.millisecondsSince1970)
    } else {
      writer.field(name + "_ms", String(instant.millisecondsSince1970))
    }
    writer.field(name + "_pst", LegacyDateFormatter.pacific(instant))
  }

  private func writeInteger(
    _ writer: inout JSONWriter, _ name: String, _ value: Int64, _ numbers: Bool
  ) {
    if numbers { writer.field(name, value) } else { writer.field(name, String(value)) }
  }

  private func writeIdentifier(
    _ writer: inout JSONWriter, _ name: String, _ value: String, _ numbers: Bool
  ) {
    if numbers, let number = Int64(value) {
      writer.field(name, number)
    } else {
      writer.field(name, value)
    }
  }

  private func writeBoolean(
    _ writer: inout JSONWriter, _ name: String, _ value: Bool, _ numbers: Bool, style: BooleanStyle
  ) {
    if numbers {
      writer.field(name, value)
    } else {
      switch style {
      case .trueFalse: writer.field(name, value ? "true" : "false")
      case .oneZero: writer.field(name, value ? "1" : "0")
      }
    }
  }
}
