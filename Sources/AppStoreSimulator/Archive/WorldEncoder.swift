import Chronology
import JSON
import LegacyReceipts

/// Writes `world.json`: one JSON document, with one customer and one account per line so the
/// file diffs well and streams; the format is documented in `Documentation/Simulator.md`.
public enum WorldEncoder {
  /// The document for a world.
  ///
  /// - Parameter world: the world.
  /// - Returns: the bytes of `world.json`.
  public static func encode(_ world: World) -> [UInt8] {
    var output = opening(world)
    for (index, customer) in world.customers.enumerated() {
      output.append(contentsOf: element(customer, offset: 0, isFirst: index == 0))
    }
    output.append(contentsOf: middle(hasCustomers: !world.customers.isEmpty))
    for (index, account) in world.accounts.enumerated() {
      output.append(contentsOf: element(account, offset: 0, isFirst: index == 0))
    }
    output.append(contentsOf: closing(hasAccounts: !world.accounts.isEmpty))
    return output
  }

  // MARK: - Sections, for writing a world part by part

  /// The document up to its first customer: the header members and the products.
  ///
  /// - Parameter world: the world (or its first part).
  /// - Returns: the bytes.
  static func opening(_ world: World) -> [UInt8] {
    var header = JSONWriter()
    header.beginObject()
    header.field("format_version", world.requiredFormatVersion)
    header.field("seed", String(world.seed))
    header.field("now", world.now.iso8601)
    header.field("now_ms", world.now.millisecondsSince1970)
    header.field("bundle_id", world.bundleId)
    header.field("app_apple_id", world.appAppleId)
    header.field("grace_period_days", world.gracePeriodDays)
    if world.identifierBase != 0 { header.field("identifier_base", world.identifierBase) }
    if let end = world.timelineEnd {
      header.field("timeline_end", end.iso8601)
      header.field("timeline_end_ms", end.millisecondsSince1970)
    }
    header.endObject()
    // Splice the header members, then the arrays one element per line.
    let text =
      String(header.string.dropLast()) + ",\n\"products\":[\n"
      + world.products.map { encode($0).string }.joined(separator: ",\n")
      + "\n],\n\"customers\":[\n"
    return Array(text.utf8)
  }

  /// One customer's line, its position moved on by `offset` (the customers of earlier parts),
  /// preceded by the separator unless it is the first.
  static func element(_ customer: Customer, offset: Int, isFirst: Bool) -> [UInt8] {
    var moved = customer
    moved.index += offset
    return separated(encode(moved).bytes, isFirst: isFirst)
  }

  /// One account's line, its customers' positions moved on by `offset`, preceded by the
  /// separator unless it is the first.
  static func element(_ account: TeamAccount, offset: Int, isFirst: Bool) -> [UInt8] {
    var moved = account
    if offset != 0 {
      moved.customers = account.customers.map { $0 + offset }
      for index in moved.snapshots.indices { moved.snapshots[index].customer += offset }
    }
    return separated(encode(moved).bytes, isFirst: isFirst)
  }

  /// Between the last customer and the first account.
  static func middle(hasCustomers: Bool) -> [UInt8] {
    Array(((hasCustomers ? "\n" : "") + "],\n\"accounts\":[\n").utf8)
  }

  /// After the last account.
  static func closing(hasAccounts: Bool) -> [UInt8] {
    Array(((hasAccounts ? "\n" : "") + "]}\n").utf8)
  }

  private static func separated(_ bytes: [UInt8], isFirst: Bool) -> [UInt8] {
    isFirst ? bytes : Array(",\n".utf8) + bytes
  }

  private static func encode(_ product: SimulatedProduct) -> JSONWriter {
    var writer = JSONWriter()
    writer.beginObject()
    writer.field("id", product.id)
    writer.field("kind", product.kind.rawValue)
    writer.field("group", product.group)
    writer.field("level", product.level)
    writer.field("period_days", product.periodDays)
    writer.field("price_milli", product.priceMilli)
    writer.endObject()
    return writer
  }

  private static func encode(_ customer: Customer) -> JSONWriter {
    var writer = JSONWriter()
    writer.beginObject()
    writer.field("index", customer.index)
    writer.field("app_transaction_id", customer.appTransactionId)
    writer.field("environment", customer.environment.rawValue)
    writer.field("forgotten", customer.isForgotten)
    writer.field("first_seen_ms", customer.firstSeen.millisecondsSince1970)
    writer.field("restored_purchases_ms", customer.restoredPurchasesAt?.millisecondsSince1970)
    writer.key("story")
    writer.beginArray()
    for line in customer.story { writer.value(line) }
    writer.endArray()
    writer.key("transactions")
    writer.beginArray()
    for transaction in customer.transactions { encode(transaction, into: &writer) }
    writer.endArray()
    writer.key("renewals")
    writer.beginArray()
    for timeline in customer.renewals {
      writer.beginObject()
      writer.field("original_transaction_id", timeline.originalTransactionId)
      writer.field("group", timeline.group)
      writer.key("events")
      writer.beginArray()
      for (instant, state) in timeline.events {
        writer.beginObject()
        writer.field("at_ms", instant.millisecondsSince1970)
        writer.field("auto_renew_status", state.autoRenewStatus)
        writer.field("auto_renew_product_id", state.autoRenewProductId)
        writer.field("expiration_intent", state.expirationIntent?.rawValue)
        writer.field("billing_retry", state.isInBillingRetryPeriod)
        writer.field("grace_period_expires_ms", state.gracePeriodExpiresDate?.millisecondsSince1970)
        writer.field("price_increase_status", state.priceIncreaseStatus)
        writer.endObject()
      }
      writer.endArray()
      writer.endObject()
    }
    writer.endArray()
    writer.endObject()
    return writer
  }

  private static func encode(_ transaction: SimulatedTransaction, into writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("transaction_id", transaction.transactionId)
    writer.field("original_transaction_id", transaction.originalTransactionId)
    writer.field("web_order_line_item_id", transaction.webOrderLineItemId)
    writer.field("product_id", transaction.productId)
    writer.field("kind", transaction.kind.rawValue)
    writer.field("group", transaction.group)
    writer.field("purchase_ms", transaction.purchaseDate.millisecondsSince1970)
    writer.field("original_purchase_ms", transaction.originalPurchaseDate.millisecondsSince1970)
    writer.field("expires_ms", transaction.expiresDate?.millisecondsSince1970)
    writer.field("quantity", transaction.quantity)
    writer.field("ownership", transaction.ownership.description)
    writer.field("reason", transaction.reason)
    writer.key("offer")
    if let offer = transaction.offer {
      writer.beginObject()
      writer.field("type", offer.type)
      writer.field("identifier", offer.identifier)
      writer.field("discount_type", offer.discountType)
      writer.field("period", offer.period)
      writer.endObject()
    } else {
      writer.null()
    }
    writer.field("price_milli", transaction.priceMilli)
    writer.field("upgraded_ms", transaction.upgradedAt?.millisecondsSince1970)
    writer.key("revocation")
    if let revocation = transaction.revocation {
      writer.beginObject()
      writer.field("date_ms", revocation.date.millisecondsSince1970)
      writer.field("kind", revocation.kind.rawValue)
      writer.field("reason", revocation.reason)
      writer.field("percentage_milli", revocation.percentageMilli)
      if let reversed = revocation.reversedAt {
        writer.field("reversed_ms", reversed.millisecondsSince1970)
      }
      writer.endObject()
    } else {
      writer.null()
    }
    writer.field("app_account_token", transaction.appAccountToken)
    writer.endObject()
  }

  private static func encode(_ account: TeamAccount) -> JSONWriter {
    var writer = JSONWriter()
    writer.beginObject()
    writer.field("id", account.id)
    writer.key("customers")
    writer.beginArray()
    for customer in account.customers { writer.value(customer) }
    writer.endArray()
    writer.key("table_flaws")
    writer.beginArray()
    for flaw in account.tableFlaws { writer.value(flaw.rawValue) }
    writer.endArray()
    writer.key("snapshots")
    writer.beginArray()
    for snapshot in account.snapshots {
      writer.beginObject()
      writer.field("customer", snapshot.customer)
      writer.field("captured_ms", snapshot.capturedAt.millisecondsSince1970)
      writer.field("style", snapshot.style.rawValue)
      writer.field("status", snapshot.status)
      writer.field("excludes_old_transactions", snapshot.excludesOldTransactions)
      writer.field("duplicates_entries", snapshot.duplicatesEntries)
      writer.field("uses_json_numbers", snapshot.usesJSONNumbers)
      writer.field("marks_upgrades_by_cancellation", snapshot.marksUpgradesByCancellation)
      // Written only when true, so worlds without such records keep their bytes.
      if snapshot.storesAppTransactionId { writer.field("stores_app_transaction_id", true) }
      if snapshot.listsOldestFirst { writer.field("lists_oldest_first", true) }
      if snapshot.holdsUnfinishedConsumables {
        writer.field("holds_unfinished_consumables", true)
      }
      writer.endObject()
    }
    writer.endArray()
    writer.endObject()
    return writer
  }
}
