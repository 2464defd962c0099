import Entitlements
import JSON

/// Renders `discrepancies.ndjson`: one compact JSON object per line and per account, in
/// display order, with the full comparison and evidence and `schema_version` on every line.
struct DiscrepanciesNDJSONRenderer {
  let content: ReportContent

  func render() -> [UInt8] {
    var output = ReportOutput()
    render(into: &output)
    return output.bytes
  }

  func render(into output: inout ReportOutput) {
    for account in content.accounts { Self.write(account, into: &output) }
  }

  /// One account's line.
  static func write(_ account: AccountComparison, into output: inout ReportOutput) {
    var writer = JSONWriter(style: .compact)
    write(account, to: &writer)
    output.write(writer.bytes)
    output.write(byte: 0x0A)
  }

  private static func write(_ account: AccountComparison, to writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("schema_version", ReportWriter.schemaVersion)
    writer.field("account_id", account.accountId)
    writer.field("category", account.category.rawValue)
    writer.field("impact", account.category.impact.rawValue)
    writer.field("cause", account.cause?.rawValue)
    writer.field("explanation", account.explanation)
    writer.field("table_category", account.tableCategory?.rawValue)
    writer.field("next_action", NextAction.of(account))
    writer.key("suspected_flaws")
    writer.beginArray()
    for flaw in account.suspectedFlaws {
      writer.beginObject()
      writer.field("flaw", flaw.rawValue)
      writer.field("explanation", flaw.explanation)
      writer.endObject()
    }
    writer.endArray()
    writer.key("secondary_findings")
    writer.beginArray()
    for finding in account.secondaryFindings { writer.value(finding) }
    writer.endArray()
    writer.key("keys")
    writer.beginArray()
    for key in account.keys { write(key, to: &writer) }
    writer.endArray()
    writer.key("evidence")
    write(account.evidence, to: &writer)
    writer.endObject()
  }

  private static func write(_ key: KeyComparison, to writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("key", key.key.description)
    writer.field("category", key.category.rawValue)
    writer.field("cause", key.cause?.rawValue)
    writer.field("explanation", key.explanation)
    writer.field("table_category", key.tableCategory?.rawValue)
    for (name, view) in [
      ("old", key.old), ("new", key.new), ("old_at_capture", key.oldAtCapture),
      ("new_at_capture", key.newAtCapture), ("table", key.table),
    ] {
      writer.key(name)
      if let view { write(view, to: &writer) } else { writer.null() }
    }
    writer.endObject()
  }

  /// A view with its members that have a value: views are most of a line, most of their
  /// sixteen fields are usually empty, and writing them all as `null` nearly doubles the file.
  private static func write(_ view: EntitlementView, to writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("status", view.status.rawValue)
    writer.field("entitled", view.isEntitled)
    func optional(_ name: String, _ text: String?) {
      if let text { writer.field(name, text) }
    }
    func optional(_ name: String, _ number: Int64?) {
      if let number { writer.field(name, number) }
    }
    optional("product_id", view.productId)
    optional("kind", view.kind?.rawValue)
    optional("expires_date", view.expiresDate?.iso8601)
    optional("grace_period_expires_date", view.gracePeriodExpiresDate?.iso8601)
    optional("ownership", view.ownership)
    if let autoRenew = view.autoRenewStatus { writer.field("auto_renew_status", autoRenew) }
    optional("expiration_intent", view.expirationIntent)
    optional("revocation_date", view.revocationDate?.iso8601)
    optional("revocation_type", view.revocationType)
    optional("revocation_percentage", view.revocationPercentage)
    optional("offer_type", view.offerType)
    optional("original_transaction_id", view.originalTransactionId)
    optional("transaction_id", view.transactionId)
    optional("reason", view.reason)
    writer.endObject()
  }

  private static func write(_ evidence: AccountEvidence, to writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("captured_at", evidence.capturedAt?.iso8601)
    writer.key("legacy_records")
    writer.beginArray()
    for record in evidence.legacyRecords {
      writer.beginObject()
      writer.field("version", record.version)
      writer.field("kind", record.kind)
      writer.field("source", record.source)
      writer.field("status", record.status)
      writer.field("environment", record.environment)
      writer.field("captured_at", record.capturedAt?.iso8601)
      writer.field("evaluated", record.isEvaluated)
      writer.endObject()
    }
    writer.endArray()
    writer.key("seed_ids")
    writer.beginArray()
    for seed in evidence.seedIds {
      writer.beginObject()
      writer.field("id", seed.id)
      writer.field("source", seed.source)
      writer.field("outcome", seed.outcome.rawValue)
      writer.field("environment", seed.environment)
      writer.field("last_error", seed.lastError)
      writer.field("unverified", seed.isUnverified)
      writer.endObject()
    }
    writer.endArray()
    writer.key("customers")
    writer.beginArray()
    for customer in evidence.customers {
      writer.beginObject()
      writer.field("key", customer.key)
      writer.field("environment", customer.environment)
      writer.key("other_accounts")
      writer.beginArray()
      for other in customer.otherAccounts { writer.value(other) }
      writer.endArray()
      writer.endObject()
    }
    writer.endArray()
    writer.endObject()
  }
}
