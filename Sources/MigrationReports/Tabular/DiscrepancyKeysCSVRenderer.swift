import Entitlements
import LegacyReceipts

/// Renders `discrepancy-keys.csv`: one line per account and entitlement key (a subscription
/// group, or a product outside groups), in display order — the finding a team acts on, with both
/// sides' status and expiry side by side, where `discrepancies.csv` packs an account's keys into
/// one field.
struct DiscrepancyKeysCSVRenderer {
  static let columns = [
    "account_id", "account_category", "key", "subscription_group", "product_id", "category",
    "impact", "cause", "table_category", "old_status", "old_expires", "new_status", "new_expires",
    "table_status", "table_expires", "ownership", "original_transaction_id", "explanation",
  ]

  let content: ReportContent

  func render(into output: inout ReportOutput) {
    Self.writeHeader(into: &output)
    for account in content.accounts { Self.write(account, into: &output) }
  }

  /// The header line.
  static func writeHeader(into output: inout ReportOutput) {
    output.write(CSVField.line(columns))
  }

  /// One line per key of an account.
  static func write(_ account: AccountComparison, into output: inout ReportOutput) {
    for key in account.keys {
      output.write(CSVField.line(fields(account, key)))
    }
  }

  static func fields(_ account: AccountComparison, _ key: KeyComparison) -> [String] {
    return [
      account.accountId,
      account.category.rawValue,
      key.key.description,
      key.subscriptionGroup ?? "",
      key.productId ?? "",
      key.category.rawValue,
      key.category.impact.rawValue,
      key.cause?.rawValue ?? "",
      key.tableCategory?.rawValue ?? "",
      key.old?.status.rawValue ?? "",
      key.old?.expiresDate?.iso8601 ?? "",
      key.new?.status.rawValue ?? "",
      key.new?.expiresDate?.iso8601 ?? "",
      key.table?.status.rawValue ?? "",
      key.table?.expiresDate?.iso8601 ?? "",
      key.new?.ownership ?? key.old?.ownership ?? "",
      key.new?.originalTransactionId ?? key.old?.originalTransactionId ?? "",
      key.explanation,
    ]
  }
}
