import Chronology
import JSON
import LegacyReceipts

/// Reads `world.json` back into a ``World``, streaming through the byte-level reader.
public enum WorldDecoder {
  /// Why a world file could not be read.
  public struct Failure: Error, CustomStringConvertible, Sendable {
    /// What was wrong, with the field and byte where known.
    public var description: String
  }

  /// Decodes a world.
  ///
  /// - Parameter bytes: the contents of `world.json`.
  /// - Returns: the world.
  /// - Throws: ``Failure`` naming the problem; a newer `format_version` is refused.
  public static func decode(_ bytes: [UInt8]) throws(Failure) -> World {
    let result: Result<World, Failure> = bytes.withUnsafeBytes { buffer in
      var reader = JSONReader(buffer, maximumDepth: 32)
      do {
        let world = try readWorld(&reader)
        try reader.finish()
        return .success(world)
      } catch let failure as Failure {
        return .failure(failure)
      } catch {
        return .failure(Failure(description: "world.json is not valid: \(error)"))
      }
    }
    return try result.get()
  }

  /// Decodes one customer, as an element of `world.json`'s `customers` array.
  ///
  /// - Parameter bytes: the element's bytes.
  /// - Returns: the customer.
  /// - Throws: ``Failure`` naming the problem.
  static func decodeCustomer(_ bytes: UnsafeRawBufferPointer) throws(Failure) -> Customer {
    var reader = JSONReader(bytes, maximumDepth: 32)
    do {
      let customer = try readCustomer(&reader)
      try reader.finish()
      return customer
    } catch let failure as Failure {
      throw failure
    } catch {
      throw Failure(description: "a customer in world.json is not valid: \(error)")
    }
  }

  private static func readWorld(_ reader: inout JSONReader) throws -> World {
    var world = World(seed: 0, now: Timestamp(millisecondsSince1970: 0))
    var sawVersion = false
    try reader.beginObject()
    while let key = try reader.nextKey() {
      switch key {
      case "format_version":
        let version = try reader.readInt64()
        guard version <= Int64(World.formatVersion) else {
          throw Failure(
            description:
              "world.json has format version \(version); this receipt-migrate reads up to \(World.formatVersion). Upgrade receipt-migrate or regenerate the world."
          )
        }
        sawVersion = true
      case "seed": world.seed = UInt64(try reader.readLenientString() ?? "0") ?? 0
      case "now_ms": world.now = Timestamp(millisecondsSince1970: try reader.readInt64())
      case "bundle_id": world.bundleId = try reader.readString()
      case "app_apple_id": world.appAppleId = try reader.readInt64()
      case "grace_period_days": world.gracePeriodDays = Int(try reader.readInt64())
      case "timeline_end_ms": world.timelineEnd = try instant(&reader)
      case "identifier_base": world.identifierBase = Int(try reader.readInt64())
      case "products":
        world.products = []
        try reader.beginArray()
        while try reader.nextElement() { world.products.append(try readProduct(&reader)) }
      case "customers":
        try reader.beginArray()
        while try reader.nextElement() { world.customers.append(try readCustomer(&reader)) }
      case "accounts":
        try reader.beginArray()
        while try reader.nextElement() { world.accounts.append(try readAccount(&reader)) }
      default:
        try reader.skipValue()
      }
    }
    guard sawVersion else {
      throw Failure(
        description: "world.json has no format_version: it is not a receipt-migrate world")
    }
    return world
  }

  private static func readProduct(_ reader: inout JSONReader) throws -> SimulatedProduct {
    var product = SimulatedProduct(id: "", kind: .nonConsumable, priceMilli: 0)
    try reader.beginObject()
    while let key = try reader.nextKey() {
      switch key {
      case "id": product.id = try reader.readString()
      case "kind": product.kind = try kind(try reader.readString())
      case "group": product.group = try reader.readLenientString()
      case "level": product.level = Int(try reader.readInt64())
      case "period_days": product.periodDays = try reader.readLenientInt64().map(Int.init)
      case "price_milli": product.priceMilli = try reader.readInt64()
      default: try reader.skipValue()
      }
    }
    return product
  }

  private static func kind(_ text: String) throws -> ProductKind {
    guard let kind = ProductKind(rawValue: text) else {
      throw Failure(description: "unknown product kind '\(text)' in world.json")
    }
    return kind
  }

  private static func instant(_ reader: inout JSONReader) throws -> Timestamp? {
    try reader.readLenientInt64().map(Timestamp.init(millisecondsSince1970:))
  }

  private static func readCustomer(_ reader: inout JSONReader) throws -> Customer {
    var customer = Customer(
      index: 0, appTransactionId: "", environment: .production,
      firstSeen: Timestamp(millisecondsSince1970: 0))
    try reader.beginObject()
    while let key = try reader.nextKey() {
      switch key {
      case "index": customer.index = Int(try reader.readInt64())
      case "app_transaction_id": customer.appTransactionId = try reader.readString()
      case "environment":
        customer.environment =
          SimulatedEnvironment(rawValue: try reader.readString()) ?? .production
      case "forgotten": customer.isForgotten = try reader.readBool()
      case "first_seen_ms": customer.firstSeen = try instant(&reader) ?? customer.firstSeen
      case "restored_purchases_ms": customer.restoredPurchasesAt = try instant(&reader)
      case "story":
        try reader.beginArray()
        while try reader.nextElement() { customer.story.append(try reader.readString()) }
      case "transactions":
        try reader.beginArray()
        while try reader.nextElement() {
          customer.transactions.append(try readTransaction(&reader))
        }
      case "renewals":
        try reader.beginArray()
        while try reader.nextElement() { customer.renewals.append(try readTimeline(&reader)) }
      default: try reader.skipValue()
      }
    }
    return customer
  }

  private static func readTransaction(_ reader: inout JSONReader) throws -> SimulatedTransaction {
    let zero = Timestamp(millisecondsSince1970: 0)
    var transaction = SimulatedTransaction(
      transactionId: "", originalTransactionId: "", webOrderLineItemId: nil, productId: "",
      kind: .nonConsumable, group: nil,
      purchaseDate: zero, originalPurchaseDate: zero, expiresDate: nil, ownership: .purchased,
      reason: "PURCHASE", priceMilli: 0)
    try reader.beginObject()
    while let key = try reader.nextKey() {
      switch key {
      case "transaction_id": transaction.transactionId = try reader.readString()
      case "original_transaction_id": transaction.originalTransactionId = try reader.readString()
      case "web_order_line_item_id": transaction.webOrderLineItemId = try reader.readLenientString()
      case "product_id": transaction.productId = try reader.readString()
      case "kind": transaction.kind = try kind(try reader.readString())
      case "group": transaction.group = try reader.readLenientString()
      case "purchase_ms": transaction.purchaseDate = try instant(&reader) ?? zero
      case "original_purchase_ms": transaction.originalPurchaseDate = try instant(&reader) ?? zero
      case "expires_ms": transaction.expiresDate = try instant(&reader)
      case "quantity": transaction.quantity = try reader.readInt64()
      case "ownership": transaction.ownership = OwnershipType(try reader.readString())
      case "reason": transaction.reason = try reader.readString()
      case "offer":
        if try reader.readNullIfPresent() { continue }
        var offer = Offer(type: 0, identifier: nil, discountType: "", period: "")
        try reader.beginObject()
        while let field = try reader.nextKey() {
          switch field {
          case "type": offer.type = try reader.readInt64()
          case "identifier": offer.identifier = try reader.readLenientString()
          case "discount_type": offer.discountType = try reader.readString()
          case "period": offer.period = try reader.readString()
          default: try reader.skipValue()
          }
        }
        transaction.offer = offer
      case "price_milli": transaction.priceMilli = try reader.readInt64()
      case "upgraded_ms": transaction.upgradedAt = try instant(&reader)
      case "revocation":
        if try reader.readNullIfPresent() { continue }
        var revocation = Revocation(date: zero, kind: .refundFull, reason: 0)
        try reader.beginObject()
        while let field = try reader.nextKey() {
          switch field {
          case "date_ms": revocation.date = try instant(&reader) ?? zero
          case "kind":
            let text = try reader.readString()
            guard let kind = Revocation.Kind(rawValue: text) else {
              throw Failure(description: "unknown revocation kind '\(text)'")
            }
            revocation.kind = kind
          case "reason": revocation.reason = try reader.readInt64()
          case "percentage_milli": revocation.percentageMilli = try reader.readLenientInt64()
          case "reversed_ms": revocation.reversedAt = try instant(&reader)
          default: try reader.skipValue()
          }
        }
        transaction.revocation = revocation
      case "app_account_token": transaction.appAccountToken = try reader.readLenientString()
      default: try reader.skipValue()
      }
    }
    return transaction
  }

  private static func readTimeline(_ reader: inout JSONReader) throws -> RenewalTimeline {
    var timeline = RenewalTimeline(originalTransactionId: "", group: "", events: [])
    try reader.beginObject()
    while let key = try reader.nextKey() {
      switch key {
      case "original_transaction_id": timeline.originalTransactionId = try reader.readString()
      case "group": timeline.group = try reader.readString()
      case "events":
        try reader.beginArray()
        while try reader.nextElement() {
          var at = Timestamp(millisecondsSince1970: 0)
          var state = RenewalState(autoRenewStatus: false, autoRenewProductId: "")
          try reader.beginObject()
          while let field = try reader.nextKey() {
            switch field {
            case "at_ms": at = try instant(&reader) ?? at
            case "auto_renew_status": state.autoRenewStatus = try reader.readBool()
            case "auto_renew_product_id": state.autoRenewProductId = try reader.readString()
            case "expiration_intent":
              state.expirationIntent = try reader.readLenientInt64().map(ExpirationIntent.init)
            case "billing_retry": state.isInBillingRetryPeriod = try reader.readBool()
            case "grace_period_expires_ms": state.gracePeriodExpiresDate = try instant(&reader)
            case "price_increase_status": state.priceIncreaseStatus = try reader.readLenientInt64()
            default: try reader.skipValue()
            }
          }
          timeline.events.append((at, state))
        }
      default: try reader.skipValue()
      }
    }
    return timeline
  }

  private static func readAccount(_ reader: inout JSONReader) throws -> TeamAccount {
    var account = TeamAccount(id: "", customers: [], snapshots: [])
    try reader.beginObject()
    while let key = try reader.nextKey() {
      switch key {
      case "id": account.id = try reader.readString()
      case "customers":
        try reader.beginArray()
        while try reader.nextElement() { account.customers.append(Int(try reader.readInt64())) }
      case "table_flaws":
        try reader.beginArray()
        while try reader.nextElement() {
          let text = try reader.readString()
          guard let flaw = LegacyLogicFlaw(rawValue: text) else {
            throw Failure(description: "unknown legacy flaw '\(text)'")
          }
          account.tableFlaws.append(flaw)
        }
      case "snapshots":
        try reader.beginArray()
        while try reader.nextElement() {
          var snapshot = LegacySnapshot(
            customer: 0, capturedAt: Timestamp(millisecondsSince1970: 0), style: .modern)
          try reader.beginObject()
          while let field = try reader.nextKey() {
            switch field {
            case "customer": snapshot.customer = Int(try reader.readInt64())
            case "captured_ms": snapshot.capturedAt = try instant(&reader) ?? snapshot.capturedAt
            case "style":
              let text = try reader.readString()
              guard let style = LegacySnapshot.Style(rawValue: text) else {
                throw Failure(description: "unknown snapshot style '\(text)'")
              }
              snapshot.style = style
            case "status": snapshot.status = try reader.readLenientInt64()
            case "excludes_old_transactions":
              snapshot.excludesOldTransactions = try reader.readBool()
            case "duplicates_entries": snapshot.duplicatesEntries = try reader.readBool()
            case "uses_json_numbers": snapshot.usesJSONNumbers = try reader.readBool()
            case "marks_upgrades_by_cancellation":
              snapshot.marksUpgradesByCancellation = try reader.readBool()
            case "stores_app_transaction_id":
              snapshot.storesAppTransactionId = try reader.readBool()
            case "lists_oldest_first": snapshot.listsOldestFirst = try reader.readBool()
            case "holds_unfinished_consumables":
              snapshot.holdsUnfinishedConsumables = try reader.readBool()
            default: try reader.skipValue()
            }
          }
          account.snapshots.append(snapshot)
        }
      default: try reader.skipValue()
      }
    }
    return account
  }
}
