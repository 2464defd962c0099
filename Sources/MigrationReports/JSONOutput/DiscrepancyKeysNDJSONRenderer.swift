import Entitlements
import JSON

/// Renders `discrepancy-keys.ndjson`: the twin of `discrepancy-keys.csv`, one compact JSON
/// object per account and entitlement key, with `schema_version` on every line and the members
/// named as the CSV's columns (an empty CSV field is an absent member here).
struct DiscrepancyKeysNDJSONRenderer {
  let content: ReportContent

  func render(into output: inout ReportOutput) {
    for account in content.accounts { Self.write(account, into: &output) }
  }

  /// One line per key of an account.
  static func write(_ account: AccountComparison, into output: inout ReportOutput) {
    let columns = DiscrepancyKeysCSVRenderer.columns
    do {
      for key in account.keys {
        var writer = JSONWriter(style: .compact)
        writer.beginObject()
        writer.field("schema_version", ReportWriter.schemaVersion)
        for (name, value) in zip(columns, DiscrepancyKeysCSVRenderer.fields(account, key))
        where !value.isEmpty {
          writer.field(name, value)
        }
        writer.endObject()
        output.write(writer.bytes)
        output.write(byte: 0x0A)
      }
    }
  }
}
