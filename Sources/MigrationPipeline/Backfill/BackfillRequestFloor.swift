import AppStoreServerAPI
import MigrationStore

/// The fewest history and status requests a backfill could have sent to store what a store
/// holds: every customer's history pages once and its statuses once, plus the answers no client
/// can avoid — an id the App Store knows in neither environment is asked in both, and an id
/// found only in the environment asked second cost one 404 in the first.
///
/// It is computed from what was stored (transactions per customer, each id's outcome), not from
/// what was sent, so a client's counters above it show wasted requests: a page fetched twice, a
/// customer walked by two groups, a retry, a 429.
///
/// The first environment an id is asked in is the one its legacy records name (the majority of
/// its group, as the backfill plans it), production when they name none; with a fixed
/// environment, only that one is asked. Each order id Look Up Order ID answered costs one
/// request of its own. App transactions (`--app-transactions`) are not counted.
public struct BackfillRequestFloor: Sendable, Hashable {
  /// Transactions per history page, as Apple and the simulator page them.
  public static let historyPageSize = 20

  /// Customers stored.
  public var customers: Int
  /// Transactions stored, over all customers.
  public var transactions: Int
  /// History pages: each customer's transactions in pages of 20, at least one page.
  public var historyPages: Int
  /// History answers 404 that the ids' outcomes make necessary.
  public var notFoundAnswers: Int
  /// History answers refusing an id as malformed (one per such id).
  public var invalidIdAnswers: Int
  /// History requests by environment: pages, 404s and refusals.
  public var historyRequests: [AppStoreEnvironment: Int]
  /// Status requests by environment: one per customer.
  public var statusRequests: [AppStoreEnvironment: Int]
  /// Look Up Order ID requests by environment: one per order id answered (valid or invalid).
  public var orderLookups: [AppStoreEnvironment: Int] = [:]

  /// Creates a floor from its parts.
  ///
  /// - Parameters:
  ///   - customers: customers stored.
  ///   - transactions: transactions stored.
  ///   - historyPages: history pages.
  ///   - notFoundAnswers: necessary 404s.
  ///   - invalidIdAnswers: refusals of malformed ids.
  ///   - historyRequests: history requests by environment.
  ///   - statusRequests: status requests by environment.
  public init(
    customers: Int = 0, transactions: Int = 0, historyPages: Int = 0, notFoundAnswers: Int = 0,
    invalidIdAnswers: Int = 0, historyRequests: [AppStoreEnvironment: Int] = [:],
    statusRequests: [AppStoreEnvironment: Int] = [:]
  ) {
    self.customers = customers
    self.transactions = transactions
    self.historyPages = historyPages
    self.notFoundAnswers = notFoundAnswers
    self.invalidIdAnswers = invalidIdAnswers
    self.historyRequests = historyRequests
    self.statusRequests = statusRequests
  }

  /// History requests in every environment.
  public var totalHistoryRequests: Int { historyRequests.values.reduce(0, +) }

  /// Status requests in every environment.
  public var totalStatusRequests: Int { statusRequests.values.reduce(0, +) }

  /// Order look-ups in every environment.
  public var totalOrderLookups: Int { orderLookups.values.reduce(0, +) }

  /// History, status and order look-up requests together.
  public var totalRequests: Int {
    totalHistoryRequests + totalStatusRequests + totalOrderLookups
  }

  /// Requests per stored customer, or 0 without customers.
  public var requestsPerCustomer: Double {
    customers == 0 ? 0 : Double(totalRequests) / Double(customers)
  }

  // MARK: - From a store

  /// The floor for what a store holds.
  ///
  /// - Parameters:
  ///   - store: the store, after a backfill.
  ///   - environment: the one environment the backfill asked, or `nil` (the default) for
  ///     automatic: the legacy records' environment first, then the other.
  /// - Returns: the floor.
  /// - Throws: `SQLiteError`.
  public static func of(store: MigrationStore, environment: AppStoreEnvironment? = nil) throws
    -> BackfillRequestFloor
  {
    let counts = try store.transactionCountsByCustomer()
    let customers = try store.customers().map { row in
      Customer(
        transactions: counts[row.id] ?? 0,
        environment: AppStoreEnvironment.named(row.environment) ?? .production)
    }
    let outcomes = try store.seedOutcomes()
    let links = try store.seedLinks().map {
      (
        accountId: $0.accountId, id: $0.originalTransactionId, recordId: $0.recordId,
        environment: $0.environment
      )
    }
    var ids: [AskedId] = []
    for group in SeedGroup.groups(from: links) {
      let first = environment ?? group.environmentHint.flatMap(AppStoreEnvironment.named)
      for id in group.ids {
        guard let outcome = outcomes[id] else { continue }
        ids.append(
          AskedId(
            outcome: outcome.outcome, firstAsked: first ?? .production,
            answeredIn: outcome.environment.flatMap(AppStoreEnvironment.named)))
      }
    }
    var floor = compute(customers: customers, ids: ids, onlyEnvironment: environment != nil)
    for order in try store.orderOutcomes() where order.outcome != "failed" {
      // `failed` has no floor, as for ids: the backfill did not finish it.
      let asked = order.environment.flatMap(AppStoreEnvironment.named) ?? .production
      floor.orderLookups[asked, default: 0] += 1
    }
    return floor
  }

  // MARK: - The arithmetic

  /// A stored customer: how many transactions it has and where it lives.
  struct Customer {
    var transactions: Int
    var environment: AppStoreEnvironment
  }

  /// A seed id as the backfill left it: its outcome, the environment it was asked in first, and
  /// the one that answered (for `found` and `covered`).
  struct AskedId {
    var outcome: String
    var firstAsked: AppStoreEnvironment
    var answeredIn: AppStoreEnvironment?
  }

  /// The floor for these customers and ids.
  ///
  /// A customer's first page is the answer to the id that found it, so it is one of its pages,
  /// not an extra request; a `covered` id was recognised in a stored history and costs nothing.
  static func compute(customers: [Customer], ids: [AskedId], onlyEnvironment: Bool)
    -> BackfillRequestFloor
  {
    var floor = BackfillRequestFloor(customers: customers.count)
    for customer in customers {
      let pages = max(1, (customer.transactions + historyPageSize - 1) / historyPageSize)
      floor.transactions += customer.transactions
      floor.historyPages += pages
      floor.historyRequests[customer.environment, default: 0] += pages
      floor.statusRequests[customer.environment, default: 0] += 1
    }
    for id in ids {
      switch id.outcome {
      case "found":
        // Asked in the wrong environment first: one 404 there before the page that found it.
        guard let answeredIn = id.answeredIn, answeredIn != id.firstAsked else { continue }
        floor.notFoundAnswers += 1
        floor.historyRequests[id.firstAsked, default: 0] += 1
      case "unknown":
        floor.notFoundAnswers += 1
        floor.historyRequests[id.firstAsked, default: 0] += 1
        if !onlyEnvironment, let second = id.firstAsked.fallback {
          floor.notFoundAnswers += 1
          floor.historyRequests[second, default: 0] += 1
        }
      case "invalid":
        floor.invalidIdAnswers += 1
        floor.historyRequests[id.firstAsked, default: 0] += 1
      default:
        // `covered` costs nothing; `failed` has no floor (the backfill did not finish it).
        continue
      }
    }
    return floor
  }
}
