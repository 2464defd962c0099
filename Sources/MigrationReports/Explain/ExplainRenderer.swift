import Chronology
import Entitlements
import Terminal

/// Renders one account's full comparison and evidence as aligned text for a terminal: what
/// `receipt-migrate explain <account-id>` prints.
///
/// Every value that comes from data is passed through a filter that writes control
/// characters as visible escapes, so a hostile account id cannot drive the terminal.
public enum ExplainRenderer {
  /// How the account was classified by the run compared with.
  public struct Since: Hashable, Sendable {
    /// That run.
    public var runId: String
    /// The account's primary category then; `nil` when the account was not in that run.
    public var category: String?
    /// Its table category then.
    public var tableCategory: String?

    /// Creates the facts.
    public init(runId: String, category: String?, tableCategory: String?) {
      self.runId = runId
      self.category = category
      self.tableCategory = tableCategory
    }
  }

  /// The account's comparison as aligned text.
  ///
  /// - Parameters:
  ///   - comparison: the account's comparison.
  ///   - asOf: the comparison instant, named in the heading when given.
  ///   - since: how the previous run classified the account, when there was one.
  ///   - pseudonymizer: replaces account ids and customer keys with pseudonyms, when given.
  ///   - lostNotifications: the notifications about the account's customers whose delivery to
  ///     the team's server failed for good (lost) or that Apple may still retry (pending), in the
  ///     order they were signed.
  /// - Returns: the text, ending with a newline.
  public static func render(
    _ comparison: AccountComparison, asOf: Timestamp? = nil, since: Since? = nil,
    pseudonymizer: Pseudonymizer? = nil, lostNotifications: [LostNotification] = []
  ) -> String {
    let account = pseudonymizer.map { $0.redacting(comparison) } ?? comparison
    var sections: [String] = []
    let lostUUIDs = lostNotifications.filter { $0.delivery == "lost" }.map(\.uuid)
    sections.append(
      overview(account, asOf: asOf, since: since, action: NextAction.of(account, lost: lostUUIDs)))
    sections.append(keys(account))
    if !account.suspectedFlaws.isEmpty {
      sections.append(
        section(
          "Suspected legacy bugs",
          table(
            ["Bug", "What it does"],
            account.suspectedFlaws.map { [$0.rawValue, $0.explanation] })))
    }
    if !account.secondaryFindings.isEmpty {
      sections.append(
        section(
          "Other findings", account.secondaryFindings.map { "- " + t($0) }.joined(separator: "\n")))
    }
    sections.append(records(account.evidence.legacyRecords))
    if let setAside = setAside(account.evidence.legacyRecords) { sections.append(setAside) }
    sections.append(seedIds(account.evidence.seedIds))
    if !account.evidence.orderIds.isEmpty { sections.append(orderIds(account.evidence.orderIds)) }
    sections.append(customers(account.evidence.customers))
    if let versions = applicationVersions(account.evidence) { sections.append(versions) }
    if let audit = account.tokenAudit { sections.append(tokens(audit)) }
    if !lostNotifications.isEmpty {
      sections.append(
        lost(lostNotifications.map { pseudonymizer?.redacting($0) ?? $0 }))
    }
    return sections.joined(separator: "\n\n") + "\n"
  }

  // MARK: - Sections

  private static func overview(
    _ account: AccountComparison, asOf: Timestamp?, since: Since?, action: String
  ) -> String {
    var facts: [(String, String)] = [
      (
        "Category",
        "\(account.category.rawValue) (\(account.category.title); "
          + "\(ReportFormatting.impact(account.category.impact)))"
      )
    ]
    if let cause = account.cause {
      facts.append(("Cause", "\(cause.rawValue): \(ReportFormatting.meaning(cause))"))
    }
    facts.append(("Explanation", t(account.explanation)))
    facts.append(("Next action", t(action)))
    if let asOf { facts.append(("Compared as of", asOf.iso8601)) }
    facts.append(("Captured at", ReportFormatting.instant(account.evidence.capturedAt)))
    if let table = account.tableCategory {
      facts.append(("Team table", "\(table.rawValue) (\(table.title))"))
    }
    if let since {
      facts.append(("Since", "run \(t(since.runId)): " + sinceText(account, since)))
    }
    let width = facts.map(\.0.count).max() ?? 0
    let lines = facts.map { name, value in
      "  " + name + String(repeating: " ", count: width - name.count + 2) + value
    }
    return "Account \(t(account.accountId))\n" + lines.joined(separator: "\n")
  }

  /// "match → refund_missed (new finding); table unchanged (match)".
  private static func sinceText(_ account: AccountComparison, _ since: Since) -> String {
    func side(_ name: String, _ before: String?, _ now: String?) -> String? {
      guard let now else { return nil }
      guard let kind = ChangeKind.of(from: before, to: now), kind != .persisting else {
        return "\(name)unchanged (\(now))"
      }
      return "\(name)\(before ?? "none") → \(now) (\(kind.title))"
    }
    return [
      side("", since.category, account.category.rawValue),
      side("table ", since.tableCategory, account.tableCategory?.rawValue),
    ].compactMap { $0 }.joined(separator: "; ")
  }

  private static func keys(_ account: AccountComparison) -> String {
    guard !account.keys.isEmpty else {
      return section("Keys", "Neither side has an entitlement key for this account.")
    }
    let blocks = account.keys.map { key -> String in
      var heading = "\(t(key.key.description))  \(key.category.rawValue)"
      if let cause = key.cause { heading += "  cause \(cause.rawValue)" }
      if let table = key.tableCategory { heading += "  table \(table.rawValue)" }
      var rows: [[String]] = []
      var details: [String] = []
      for side in ViewText.Side.allCases {
        guard let view = side.view(in: key) else {
          if side.isAlwaysShown {
            rows.append([side.rawValue, "none", "", "", "knows nothing of this key"])
          }
          continue
        }
        rows.append([
          side.rawValue, view.status.rawValue, view.productId ?? "",
          view.expiresDate?.iso8601 ?? "",
          view.reason ?? "",
        ])
        let facts = ViewText.details(view)
        if !facts.isEmpty { details.append("\(side.rawValue): \(t(facts))") }
      }
      // The details are long and differ little between views, so they go below the table
      // rather than widen it past a terminal's width.
      return
        ([
          heading, t(key.explanation),
          table(["View", "Status", "Product", "Expires", "Reason"], rows),
        ]
        + details).joined(separator: "\n")
    }
    return section("Keys", blocks.joined(separator: "\n\n"))
  }

  private static func records(_ records: [AccountEvidence.LegacyRecord]) -> String {
    guard !records.isEmpty else { return section("Legacy records", "None stored.") }
    let rows = records.map { record in
      [
        String(record.version), record.kind, record.source, record.status.map(String.init) ?? "",
        record.environment ?? "", record.capturedAt?.iso8601 ?? "",
        ([record.isEvaluated ? "evaluated" : ""]
          + (record.setAside.isEmpty ? [] : ["partial: \(record.setAside.count) set aside"]))
          .filter { !$0.isEmpty }.joined(separator: "; "),
      ]
    }
    return section(
      "Legacy records",
      table(["Version", "Kind", "Source", "Status", "Environment", "Captured", "Evaluated"], rows))
  }

  /// Every field ingest set aside from the account's records: where, why, and what it held.
  private static func setAside(_ records: [AccountEvidence.LegacyRecord]) -> String? {
    let rows = records.flatMap { record in
      record.setAside.map { field in
        ["\(record.version)", field.path, field.reason, field.excerpt, field.detail]
      }
    }
    guard !rows.isEmpty else { return nil }
    return section(
      "Set aside at ingest (the rest of each record was read)",
      table(["Version", "Field", "Reason", "Value", "Why"], rows))
  }

  private static func orderIds(_ orders: [AccountEvidence.OrderId]) -> String {
    let rows = orders.map { order in
      [
        order.orderId, order.outcome.rawValue, order.transactionIds.joined(separator: ", "),
        order.lastError ?? "",
      ]
    }
    return section(
      "Order ids (Look Up Order ID)",
      table(["Order", "Outcome", "Transactions", "Last error"], rows))
  }

  /// The paid-to-free evidence: the original application version on both sides.
  private static func applicationVersions(_ evidence: AccountEvidence) -> String? {
    guard
      !evidence.legacyOriginalApplicationVersions.isEmpty
        || evidence.customers.contains(where: { $0.originalApplicationVersion != nil })
    else { return nil }
    var lines = [
      "Legacy receipt (original_application_version): "
        + (evidence.legacyOriginalApplicationVersions.isEmpty
          ? "none" : evidence.legacyOriginalApplicationVersions.joined(separator: ", "))
    ]
    for customer in evidence.customers {
      lines.append(
        "App Store, customer \(customer.key) (originalApplicationVersion): "
          + (customer.originalApplicationVersion
            ?? "not fetched (backfill with --app-transactions to compare it)"))
    }
    return section(
      "Original application version (paid-to-free grants)", lines.map(t).joined(separator: "\n"))
  }

  private static func seedIds(_ seeds: [AccountEvidence.SeedId]) -> String {
    guard !seeds.isEmpty else {
      return section("Original transaction ids", "None: nothing to look up at the App Store.")
    }
    let rows = seeds.map { seed in
      [
        seed.id, seed.source, seed.outcome.rawValue, seed.environment ?? "",
        seed.isUnverified ? "unverified receipt" : "", seed.lastError ?? "",
      ]
    }
    return section(
      "Original transaction ids",
      table(["Id", "Found in", "Outcome", "Environment", "Receipt", "Last error"], rows))
  }

  private static func customers(_ customers: [AccountEvidence.Customer]) -> String {
    guard !customers.isEmpty else { return section("App Store customers", "None found.") }
    let rows = customers.map { customer in
      [customer.key, customer.environment, customer.otherAccounts.joined(separator: ", ")]
    }
    return section(
      "App Store customers", table(["Customer", "Environment", "Also under accounts"], rows))
  }

  private static func tokens(_ audit: AccountTokenAudit) -> String {
    let expected = "The account's token: " + (audit.expectedToken ?? "none in the mapping")
    guard !audit.purchases.isEmpty else {
      return section("Account tokens", expected + "\nNo purchase to check.")
    }
    let rows = audit.purchases.map { purchase in
      [
        purchase.originalTransactionId, purchase.productId ?? "", purchase.currentToken ?? "none",
        purchase.finding.rawValue
          + (purchase.tokenOwner.map { " (association leak: account \($0)'s token)" } ?? ""),
      ]
    }
    return section(
      "Account tokens",
      expected + "\n"
        + table(["Original transaction", "Product", "Token now", "Finding"], rows))
  }

  /// The notifications about the account's customers that never reached your server (lost) or
  /// that Apple may still retry (pending): the same columns as the report's list, and how to
  /// send the lost ones.
  private static func lost(_ notifications: [LostNotification]) -> String {
    let columns = LostNotificationColumn.allCases
    let rows = notifications.map { notification in columns.map { $0.text(notification) } }
    return section(
      "Notifications your server did not receive",
      "Apple did not deliver these notifications about the account's customers to your server; "
        + "your table may be wrong because of them.\n"
        + table(columns.map(\.title), rows) + "\n"
        + "Send the lost ones, with every other lost notification your server has not accepted, "
        + "as Apple would have: receipt-migrate notifications replay --to URL (pending ones are "
        + "left alone until Apple gives up on them)")
  }

  // MARK: - Layout

  private static func section(_ title: String, _ body: String) -> String {
    title + "\n"
      + body.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n")
  }

  private static func table(_ titles: [String], _ rows: [[String]]) -> String {
    var table = TextTable(columns: titles.map { TextTable.Column($0) })
    for row in rows {
      table.addRow(row.map(t))
    }
    return table.rendered()
  }

  private static func t(_ text: String) -> String { TerminalText.safe(text) }
}
