import Chronology

/// The simulated App Store's truth for one app: its products, its customers and everything they
/// did, and the team's accounts with the legacy records the team stored. Everything is derived
/// deterministically from a seed, with a fixed clock.
public struct World: Hashable, Sendable {
  /// The version of the app every customer first got, as legacy receipts name it
  /// (`original_application_version`) and as app transactions do (`originalApplicationVersion`):
  /// the same value on both sides, as Apple's two records of one download hold.
  public static let originalApplicationVersion = "1.0"

  /// The newest version of `world.json` this build reads and writes; bump it when the format
  /// changes incompatibly. A world without a timeline past its clock is still written as
  /// version 1, byte for byte as before.
  public static let formatVersion = 2

  /// The seed it was generated from.
  public var seed: UInt64
  /// The world's clock: "now" for the simulator and the default comparison instant.
  public var now: Timestamp
  /// The app's bundle id.
  public var bundleId: String
  /// The app's Apple id.
  public var appAppleId: Int64
  /// The app's products.
  public var products: [SimulatedProduct]
  /// Every customer, by index.
  public var customers: [Customer]
  /// The team's accounts.
  public var accounts: [TeamAccount]
  /// The length of the billing grace period the app enabled, in days.
  public var gracePeriodDays: Int
  /// How far the world's timeline goes on past ``now``: renewals, churn, refunds and the rest
  /// happen up to this instant, so the simulator can be served at any clock from ``now`` to
  /// here. `nil` when the timeline stops at ``now``.
  public var timelineEnd: Timestamp?
  /// Where customers' ids are numbered from: 0 for a whole world; a world generated as one
  /// part of a larger one (see ``GeneratorConfiguration/numbering``) starts its customers'
  /// transaction and app transaction ids here, so the parts' ids never meet.
  public var identifierBase = 0

  /// The format version this world needs: 2 once its timeline goes on past its clock (refund
  /// reversals and a timeline end exist only there), else 1.
  public var requiredFormatVersion: Int { timelineEnd == nil ? 1 : 2 }

  /// The last instant the simulator can be served at: the end of the timeline, or the clock.
  public var latestClock: Timestamp { timelineEnd ?? now }

  /// Creates a world.
  public init(
    seed: UInt64, now: Timestamp, bundleId: String = "com.example.studio",
    appAppleId: Int64 = 1_234_567_890,
    products: [SimulatedProduct] = SimulatedProduct.catalogue, customers: [Customer] = [],
    accounts: [TeamAccount] = [],
    gracePeriodDays: Int = 16
  ) {
    self.seed = seed
    self.now = now
    self.bundleId = bundleId
    self.appAppleId = appAppleId
    self.products = products
    self.customers = customers
    self.accounts = accounts
    self.gracePeriodDays = gracePeriodDays
  }

  /// A customer's number in the whole world: its position, moved on by ``identifierBase`` when
  /// this world is one part of a larger one. Whatever is derived from a customer's identity
  /// (ids, receipt fields) derives from this, so a world made in parts equals the whole world.
  ///
  /// - Parameter customer: one of this world's customers.
  public func number(of customer: Customer) -> Int {
    identifierBase + customer.index
  }

  /// The product with this id.
  ///
  /// - Parameter id: the product id.
  public func product(_ id: String) -> SimulatedProduct? {
    products.first { $0.id == id }
  }
}
