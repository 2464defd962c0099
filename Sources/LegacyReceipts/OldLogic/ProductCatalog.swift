import Chronology
import Foundation

/// What the team knows about its products: kind and subscription group per product id, and how
/// long a non-renewing subscription lasts. The old logic works without it (an entry with an
/// expiry is a subscription, anything else a non-consumable), but only a catalogue can tell
/// consumables and non-renewing subscriptions apart — which the Server API's `type` field does
/// by itself — and only the catalogue knows a non-renewing subscription's duration: the app
/// defines it, neither receipts nor the App Store carry it.
public struct ProductCatalog: Hashable, Sendable {
  /// One product.
  public struct Product: Hashable, Sendable {
    /// The product's kind.
    public var kind: ProductKind
    /// The subscription group, for auto-renewable subscriptions.
    public var subscriptionGroupIdentifier: String?
    /// How long a purchase grants access, for non-renewing subscriptions (`P90D`).
    public var duration: CalendarDuration?

    /// Creates a product entry.
    ///
    /// - Parameters:
    ///   - kind: the product's kind.
    ///   - subscriptionGroupIdentifier: its subscription group, if any.
    ///   - duration: how long a purchase lasts, for a non-renewing subscription.
    public init(
      kind: ProductKind, subscriptionGroupIdentifier: String? = nil,
      duration: CalendarDuration? = nil
    ) {
      self.kind = kind
      self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
      self.duration = duration
    }
  }

  /// Products by id.
  public var products: [String: Product]

  /// Creates a catalogue.
  ///
  /// - Parameter products: products by id.
  public init(products: [String: Product] = [:]) {
    self.products = products
  }

  /// Parses `product_id,type[,subscription_group_identifier[,duration]]` CSV text (a header row
  /// first); `duration` is an ISO 8601 duration (`P1M`, `P90D`) for non-renewing subscriptions.
  ///
  /// - Parameter text: the CSV text.
  /// - Throws: ``ProductCatalogError`` naming the line and the problem.
  public init(csv text: String) throws {
    var products: [String: Product] = [:]
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      let row = line.trimmingCharacters(in: .whitespacesAndNewlines)
      if index == 0 || row.isEmpty { continue }
      let fields = row.split(separator: ",", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespacesAndNewlines)
      }
      guard fields.count >= 2, !fields[0].isEmpty else {
        throw ProductCatalogError(
          line: index + 1,
          reason: "expected product_id,type[,subscription_group_identifier[,duration]]")
      }
      guard let kind = ProductKind(parsing: fields[1]) else {
        throw ProductCatalogError(
          line: index + 1,
          reason:
            "unknown product type '\(fields[1])'; use auto_renewable, non_consumable, consumable or non_renewing"
        )
      }
      let group = fields.count > 2 && !fields[2].isEmpty ? fields[2] : nil
      var duration: CalendarDuration?
      if fields.count > 3 && !fields[3].isEmpty {
        guard let parsed = CalendarDuration(parsing: fields[3]) else {
          throw ProductCatalogError(
            line: index + 1,
            reason:
              "the duration '\(fields[3])' is not an ISO 8601 duration; write P1M, P90D, P1Y or "
              + "the like")
        }
        guard kind == .nonRenewing else {
          throw ProductCatalogError(
            line: index + 1,
            reason:
              "a duration is only for non-renewing subscriptions; \(fields[0]) is \(kind.rawValue)")
        }
        duration = parsed
      }
      products[fields[0]] = Product(
        kind: kind, subscriptionGroupIdentifier: group, duration: duration)
    }
    self.products = products
  }

  /// The product with this id, if catalogued.
  ///
  /// - Parameter productId: the product id.
  public subscript(productId: String) -> Product? { products[productId] }
}

/// A product catalogue line that could not be read.
public struct ProductCatalogError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The 1-based line.
  public var line: Int
  /// What is wrong with it.
  public var reason: String

  /// `product catalogue line 3: unknown product type 'x'`.
  public var description: String { "product catalogue line \(line): \(reason)" }
}
