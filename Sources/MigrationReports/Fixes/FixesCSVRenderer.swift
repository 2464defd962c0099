import Chronology
import Entitlements
import LegacyReceipts

/// Renders `fixes.csv`: the rows that make the team's table agree with the App Store, in the
/// table's own format (``TeamTableFormat``), one per account and product where the table is
/// wrong, holding what the App Store says at the run's instant — ready to load after review.
///
/// For a key the table gets wrong, the App Store's product gets the App Store's status and
/// expiry; the product the table grants instead (the tier before an upgrade, a product the App
/// Store knows nothing of) is set to "no access" without an expiry. Loaded by account and
/// product (an update of the row, or an insert where there is none), the table then agrees
/// with the App Store on that key. Keys the comparison cannot judge (`duration_unknown`, and
/// accounts whose App Store data is stale or missing) get no row.
///
/// Fields are quoted as RFC 4180 says but, unlike the other CSV files, never prefixed for
/// spreadsheets: the file is for a database, and the ids must stay byte for byte the table's.
struct FixesCSVRenderer {
  let format: TeamTableFormat

  /// The header line: the table's own column names, in its order.
  func writeHeader(into output: inout ReportOutput) {
    output.write(Self.line(format.columns.map(\.name)))
  }

  /// The account's fix-up rows, if any.
  func write(_ account: AccountComparison, into output: inout ReportOutput) {
    for fix in Self.fixes(account) {
      let fields = format.columns.map { column -> String in
        switch column.field {
        case .accountId: account.accountId
        case .productId: fix.productId
        case .status: format.text(fix.status)
        case .expiresAt: format.text(fix.expiresAt)
        }
      }
      output.write(Self.line(fields))
    }
  }

  /// What the table should hold for each product it gets wrong, the App Store's product of a
  /// key first.
  ///
  /// - Parameter account: the account's comparison.
  /// - Returns: the rows, by product, each product once.
  static func fixes(_ account: AccountComparison)
    -> [(productId: String, status: EntitlementStatus, expiresAt: Timestamp?)]
  {
    var fixes: [(productId: String, status: EntitlementStatus, expiresAt: Timestamp?)] = []
    // An account the data cannot decide (ids unresolved, sandbox only, an Apple Account shared
    // with another account, …) gets no row: its App Store side is partial or not its own, and a
    // row loaded from it could take access from a paying customer. An account of ids only is
    // decided: only its legacy side is missing.
    guard !account.category.isAccountLevel || account.category == .idsOnly else { return [] }
    var seen: Set<String> = []
    for key in account.keys + account.tableOnlyKeys {
      guard let category = key.tableCategory, category != .match, category != .durationUnknown
      else { continue }
      if let appStore = key.new, let product = appStore.productId, seen.insert(product).inserted {
        fixes.append((product, appStore.status, appStore.expiresDate))
      }
      if let table = key.table, table.isEntitled, let product = table.productId,
        seen.insert(product).inserted
      {
        fixes.append((product, .expired, nil))
      }
    }
    return fixes
  }

  /// A record, quoted as RFC 4180 says, ended by CRLF.
  static func line(_ fields: [String]) -> String {
    fields.map { value in
      let needsQuotes =
        value.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        || value.hasPrefix(" ") || value.hasSuffix(" ")
      return needsQuotes ? "\"" + value.replacing("\"", with: "\"\"") + "\"" : value
    }.joined(separator: ",") + "\r\n"
  }
}
