import Chronology
import CryptoSupport
import Foundation
import JSON
import LegacyReceipts

/// Writes everything `simulator generate` produces for a world into a directory: the truth
/// (`world.json`), the team's legacy data (`receipts.ndjson`, `accounts.csv`, `products.csv`,
/// `current-entitlements.csv`) and the answers a correct comparison must reach (`expected.csv`).
public struct GeneratedArchive: Sendable {
  /// The file names, for readers of the directory.
  public enum FileName {
    /// The App Store truth.
    public static let world = "world.json"
    /// The legacy verifyReceipt responses, NDJSON.
    public static let receipts = "receipts.ndjson"
    /// Team account → Apple Account links.
    public static let accounts = "accounts.csv"
    /// The product catalogue.
    public static let products = "products.csv"
    /// The team's current entitlement table.
    public static let currentEntitlements = "current-entitlements.csv"
    /// The expected category of every account.
    public static let expected = "expected.csv"
  }

  /// The world.
  public let world: World

  /// Creates an archive for a world.
  ///
  /// - Parameter world: the world.
  public init(world: World) {
    self.world = world
  }

  /// Writes every file into `directory` (created if needed), replacing older versions.
  ///
  /// - Parameter directory: the output directory.
  /// - Returns: the expectations written to `expected.csv`.
  /// - Throws: when a file cannot be written.
  @discardableResult
  public func write(to directory: String) throws -> [ExpectedCategoryOracle.Expectation] {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let writer = try ArchiveWriter(directory: directory)
    let expectations = try writer.append(world)
    try writer.finish()
    return expectations
  }

  /// The header line of each CSV file.
  enum Header {
    static let accounts = "account_id,app_transaction_id,environment\n"
    static let products = "product_id,type,subscription_group_identifier,duration\n"
    static let currentEntitlements = "account_id,product_id,status,expires_at\n"
    static let expected = "account_id,category,table_category,table_flaws\n"
  }

  /// What a correct comparison must find at an instant of the world's timeline, and the team
  /// table the world's flawed legacy logic holds then: `expected.csv` and
  /// `current-entitlements.csv` as they would read that night.
  ///
  /// - Parameters:
  ///   - instant: the comparison instant, up to the end of the timeline.
  ///   - dataAsOf: when the App Store data compared was fetched, if earlier and never
  ///     refreshed (see
  ///     ``ExpectedCategoryOracle/init(world:at:dataAsOf:dataFetchedAt:maxDataAge:)``).
  ///   - dataFetchedAt: when it was fetched, if later than `instant`.
  ///   - maxDataAge: how long never-refreshed data may be read.
  ///   - followsTokens: whether the comparison follows customers through the team's tokens.
  /// - Returns: the two files' text.
  public func expectations(
    at instant: Timestamp, dataAsOf: Timestamp? = nil, dataFetchedAt: Timestamp? = nil,
    maxDataAge: Int64 = 3 * Timestamp.millisecondsPerDay, followsTokens: Bool = false
  ) -> (expected: String, table: String) {
    let expectations = ExpectedCategoryOracle(
      world: world, at: instant, dataAsOf: dataAsOf, dataFetchedAt: dataFetchedAt,
      maxDataAge: maxDataAge, followsTokens: followsTokens
    ).expectations()
    return (
      Header.expected + expected(expectations[...]),
      Header.currentEntitlements + currentEntitlements(expectations[...])
    )
  }

  /// `receipts.ndjson`'s records for some accounts: one per stored snapshot, oldest first
  /// within each account.
  ///
  /// - Parameters:
  ///   - accounts: the accounts, by position.
  ///   - responses: each of those accounts' response texts, in snapshot order.
  ///   - chain: the chain that signs raw receipts.
  func receipts(
    _ accounts: Range<Int>, responses: ArraySlice<[String]>, chain: CertificateAuthorityChain
  ) throws -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(accounts.count * 8192)
    let raw = RawReceiptWriter(world: world, chain: chain)
    let legacy = LegacyResponseWriter(world: world)
    for (account, texts) in zip(world.accounts[accounts], responses) {
      for (snapshot, text) in zip(account.snapshots, texts) {
        let customer = world.customers[snapshot.customer]
        if snapshot.style == .rawReceipt {
          output.append(contentsOf: try raw.record(for: snapshot, accountId: account.id).utf8)
          output.append(0x0A)
          continue
        }
        var record = JSONWriter()
        record.beginObject()
        record.field("account_id", account.id)
        record.field("captured_at", snapshot.capturedAt.iso8601)
        switch snapshot.style {
        case .appTransactionIdOnly:
          record.field("environment", customer.environment.rawValue)
          record.field("app_transaction_id", customer.appTransactionId)
        case .orderIdOnly:
          record.field(
            "order_id",
            legacy.orderTransaction(of: customer, at: snapshot.capturedAt).flatMap(
              OrderIdentifier.orderId(for:)))
        default:
          if snapshot.storesAppTransactionId {
            record.field("app_transaction_id", customer.appTransactionId)
          }
          record.key("response")
          record.raw(text.utf8)
        }
        record.endObject()
        output.append(contentsOf: record.bytes)
        output.append(0x0A)
      }
    }
    return output
  }

  /// `accounts.csv`'s lines (without its header): which Apple Accounts each team account is
  /// linked to.
  ///
  /// - Parameter accounts: the accounts, by position.
  func accountLinks(_ accounts: Range<Int>) -> String {
    var text = ""
    for account in world.accounts[accounts] {
      for customer in account.customers {
        text +=
          "\(account.id),\(world.customers[customer].appTransactionId),\(world.customers[customer].environment.rawValue)\n"
      }
    }
    return text
  }

  /// `products.csv`: the catalogue in the format `--catalog` reads.
  func products() -> String {
    var text = Header.products
    for product in world.products {
      let duration =
        product.kind == .nonRenewing ? product.periodDays.map { "P\($0)D" } ?? "" : ""
      text += "\(product.id),\(product.kind.rawValue),\(product.group ?? ""),\(duration)\n"
    }
    return text
  }

  /// `current-entitlements.csv`'s lines (without its header): what the team's own (buggy)
  /// legacy code grants today.
  func currentEntitlements(_ expectations: ArraySlice<ExpectedCategoryOracle.Expectation>)
    -> String
  {
    var text = ""
    for expectation in expectations {
      for row in expectation.table {
        text +=
          "\(expectation.accountId),\(row.productId ?? ""),\(row.status.rawValue),\(row.expiresDate?.iso8601 ?? "")\n"
      }
    }
    return text
  }

  /// `expected.csv`'s lines (without its header): the category a correct comparison must find
  /// for every account.
  func expected(_ expectations: ArraySlice<ExpectedCategoryOracle.Expectation>) -> String {
    var text = ""
    for expectation in expectations {
      text +=
        "\(expectation.accountId),\(expectation.category.rawValue),\(expectation.tableCategory.rawValue),"
        + expectation.effectiveFlaws.map(\.rawValue).joined(separator: ";") + "\n"
    }
    return text
  }
}
