import Chronology
import JSON

/// The behaviour of `receipt-migrate lookup <transaction-id>`: fetches one customer's history,
/// subscription statuses and app transaction, and prints a readable summary (or JSON).
///
/// Exit statuses: 0 found; 3 configuration or authentication error; 4 the customer could not be
/// resolved (unknown to the App Store, a bad id, the API unreachable).
public enum CustomerLookup {
  /// What one lookup found.
  public struct Result: Sendable {
    /// The environment that answered.
    public var environment: AppStoreEnvironment
    /// The merged transaction history.
    public var history: CollectedHistory
    /// The subscription statuses.
    public var statuses: StatusResponse
    /// The app transaction, if the customer has one.
    public var appTransaction: Verified<AppTransaction>?
  }

  /// Looks up a customer.
  ///
  /// - Parameters:
  ///   - transactionId: Any transaction id of the customer.
  ///   - client: The client to use.
  ///   - environment: The environment, or `nil` for production first with sandbox fallback.
  /// - Returns: What the App Store knows about the customer.
  /// - Throws: ``AppStoreAPIError``.
  public static func fetch(
    _ transactionId: String, client: AppStoreServerAPIClient, environment: AppStoreEnvironment?
  ) async throws(AppStoreAPIError) -> Result {
    let resolution: EnvironmentResolution<CollectedHistory>
    if let environment {
      resolution = EnvironmentResolution(
        value: try await client.collectHistory(transactionId, environment: environment),
        environment: environment)
    } else {
      resolution = try await client.resolvingEnvironment(for: transactionId) {
        environment throws(AppStoreAPIError) in
        try await client.collectHistory(transactionId, environment: environment)
      }
    }
    let statuses = try await client.allSubscriptionStatuses(
      transactionId, environment: resolution.environment)
    let appTransaction = try await client.appTransactionInfo(
      transactionId, environment: resolution.environment)
    return Result(
      environment: resolution.environment, history: resolution.value, statuses: statuses,
      appTransaction: appTransaction)
  }

  /// Runs the command: looks the customer up and renders the result or the error.
  ///
  /// - Parameters:
  ///   - transactionId: Any transaction id of the customer.
  ///   - client: The client to use.
  ///   - environment: The environment, or `nil` for automatic.
  ///   - json: Whether to print JSON instead of a summary.
  /// - Returns: The text to print and the exit status.
  public static func run(
    _ transactionId: String, client: AppStoreServerAPIClient, environment: AppStoreEnvironment?,
    json: Bool
  ) async -> InspectionReport {
    do {
      let result = try await fetch(transactionId, client: client, environment: environment)
      let text =
        json
        ? renderJSON(result, transactionId: transactionId)
        : renderSummary(result, transactionId: transactionId, client: client)
      return InspectionReport(text: text, exitStatus: 0)
    } catch {
      let isConfiguration =
        error.kind == .unauthorized || error.errorCode == .invalidAppIdentifier
      return InspectionReport(
        text: "lookup \(transactionId) failed: \(error)\n", exitStatus: isConfiguration ? 3 : 4)
    }
  }

  // MARK: - Rendering

  /// A readable summary of a lookup.
  ///
  /// - Parameters:
  ///   - result: What the lookup found.
  ///   - transactionId: The id looked up.
  ///   - client: The client, for its request counts.
  /// - Returns: Lines of text.
  public static func renderSummary(
    _ result: Result, transactionId: String, client: AppStoreServerAPIClient? = nil
  ) -> String {
    var lines = ["Customer of transaction \(transactionId): \(result.environment.rawValue)"]
    if let app = result.appTransaction?.payload {
      lines.append(
        "App transaction: \(app.appTransactionId ?? "(no id)"), first bought "
          + "\(app.originalPurchaseDate.map(\.description) ?? "(unknown)")"
          + (app.originalPlatform.map { " on \($0.rawValue)" } ?? ""))
    } else {
      lines.append("App transaction: none")
    }
    let history = result.history
    lines.append(
      "History: \(history.transactions.count) transaction(s) on \(history.pageCount) page(s)"
        + (history.revision.map { "; revision \($0)" } ?? ""))
    let rows = history.transactions.map { verified -> [String] in
      let transaction = verified.payload
      var state = "purchased"
      if let revoked = transaction.revocationDate {
        state =
          "revoked \(revoked)"
          + (transaction.revocationType.map { " (\($0.rawValue))" } ?? "")
      } else if transaction.isUpgraded == true {
        state = "upgraded"
      }
      return [
        transaction.transactionId ?? "-", transaction.productId ?? "-",
        transaction.type?.rawValue ?? "-", transaction.purchaseDate?.description ?? "-",
        transaction.expiresDate?.description ?? "-", state,
      ]
    }
    lines += table(
      header: ["TRANSACTION", "PRODUCT", "TYPE", "PURCHASED", "EXPIRES", "STATE"], rows: rows)
    lines.append("Subscriptions: \(result.statuses.groups.count) group(s)")
    for group in result.statuses.groups {
      for entry in group.lastTransactions {
        let renewal = entry.renewalInfo.payload
        let expires = entry.transaction.payload.expiresDate.map { ", expires \($0)" } ?? ""
        let autoRenew =
          renewal.autoRenewStatus.map { $0 == .on ? ", renews" : ", does not renew" } ?? ""
        lines.append(
          "  group \(group.subscriptionGroupIdentifier): \(entry.originalTransactionId) "
            + "\(statusName(entry.status)) (\(entry.status.rawValue))"
            + (entry.status.isEntitled ? ", entitled" : ", not entitled")
            + " — \(entry.transaction.payload.productId ?? "-")\(expires)\(autoRenew)")
      }
    }
    if let client {
      let snapshot = client.counters.snapshot()
      lines.append(
        "Requests: \(snapshot.totalRequests) ("
          + snapshot.endpoints.keys.sorted().map { "\($0) \(snapshot[$0].requests)" }
          .joined(separator: ", ") + ")")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The lookup as pretty JSON: the environment, the decoded transactions, statuses and app
  /// transaction.
  ///
  /// - Parameters:
  ///   - result: What the lookup found.
  ///   - transactionId: The id looked up.
  /// - Returns: JSON text.
  public static func renderJSON(_ result: Result, transactionId: String) -> String {
    var writer = JSONWriter(style: .pretty)
    writer.beginObject()
    writer.field("transaction_id", transactionId)
    writer.field("environment", result.environment.rawValue)
    writer.field("revision", result.history.revision)
    writer.key("transactions")
    writer.beginArray()
    for transaction in result.history.transactions { transaction.payload.write(to: &writer) }
    writer.endArray()
    writer.key("subscription_groups")
    writer.beginArray()
    for group in result.statuses.groups {
      writer.beginObject()
      writer.field("subscription_group_identifier", group.subscriptionGroupIdentifier)
      writer.key("last_transactions")
      writer.beginArray()
      for entry in group.lastTransactions {
        writer.beginObject()
        writer.field("status", entry.status.rawValue)
        writer.field("original_transaction_id", entry.originalTransactionId)
        writer.key("transaction")
        entry.transaction.payload.write(to: &writer)
        writer.key("renewal_info")
        entry.renewalInfo.payload.write(to: &writer)
        writer.endObject()
      }
      writer.endArray()
      writer.endObject()
    }
    writer.endArray()
    writer.key("app_transaction")
    if let app = result.appTransaction { app.payload.write(to: &writer) } else { writer.null() }
    writer.endObject()
    return writer.string + "\n"
  }

  private static func statusName(_ status: SubscriptionStatus) -> String {
    switch status {
    case .active: "active"
    case .expired: "expired"
    case .billingRetry: "in billing retry"
    case .billingGracePeriod: "in billing grace period"
    case .revoked: "revoked"
    case .unknown: "unknown status"
    }
  }

  private static func table(header: [String], rows: [[String]]) -> [String] {
    guard !rows.isEmpty else { return ["  (none)"] }
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    return all.map { row in
      "  "
        + row.enumerated().map { column, cell in
          column == row.count - 1
            ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
        }.joined(separator: "  ")
    }
  }
}
