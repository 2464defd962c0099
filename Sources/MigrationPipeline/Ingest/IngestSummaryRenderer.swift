import Chronology
import JSON
import LegacyReceipts
import Terminal

/// Renders an ``IngestSummary`` for people (aligned text) and for scripts (`--json`).
public enum IngestSummaryRenderer {
  /// The version of the JSON form; bump it when a field changes meaning or disappears.
  public static let jsonSchemaVersion = 1

  // MARK: - Text

  /// The summary as aligned text.
  ///
  /// - Parameters:
  ///   - summary: the summary.
  ///   - storePath: the store's path, named in the output.
  /// - Returns: the text, ending with a newline.
  public static func text(_ summary: IngestSummary, storePath: String) -> String {
    var lines: [String] = []
    let seconds = NumberFormatting.decimal(
      Double(summary.durationMilliseconds) / 1000, fractionDigits: 2)
    lines.append(
      "Read \(count(summary.recordsRead)) records (\(megabytes(summary.bytesRead))) in \(seconds) s: "
        + "\(count(summary.accepted)) accepted, \(count(summary.partial)) partial "
        + "(\(count(summary.newRecords)) new, \(count(summary.alreadyStored)) already stored), "
        + "\(count(summary.quarantined)) quarantined."
    )
    if !summary.acceptedByKind.isEmpty {
      let kinds = [
        ("response", "responses"), ("raw_receipt", "raw receipts"), ("seed", "CSV seed rows"),
      ]
      .compactMap { key, label in summary.acceptedByKind[key].map { "\(label) \(count($0))" } }
      lines.append("Accepted: " + kinds.joined(separator: ", ") + ".")
    }
    lines[lines.count - 1] += "\n"

    let totals = summary.totals
    lines.append(
      section(
        "The store \(storePath) now holds",
        [
          ("accounts", count(totals.accounts)),
          ("legacy records (all versions)", count(totals.records)),
          ("partial (some fields set aside)", count(totals.partialRecords)),
          ("distinct original transaction ids", count(totals.distinctOriginalTransactionIds)),
          ("accounts without any id", count(totals.accountsWithoutIds)),
          ("raw receipts without any purchase", count(totals.rawReceiptsPending)),
        ]))
    lines.append(
      section(
        "Records by environment",
        totals.recordsByEnvironment.sorted { $0.key < $1.key }.map { ($0.key, count($0.value)) }))
    lines.append(
      section(
        "Responses by status",
        totals.responsesByStatus.sorted { $0.key < $1.key }.map { status, value in
          ("\(status) \(ReceiptStatus(rawValue: status).meaning)", count(value))
        }))
    lines.append(
      section(
        "Old logic at capture, latest response per account",
        entitlementRows(totals.oldEntitlementsByStatus)))
    if let asOf = summary.asOf {
      lines.append(
        section(
          "Old logic at \(asOf), latest response per account",
          entitlementRows(summary.oldEntitlementsAsOfByStatus)))
    }
    if summary.partial > 0 {
      let fields = summary.setAsideByReason.values.reduce(0, +)
      var partial = section(
        "Set aside in this run (\(count(fields)) field(s) of \(count(summary.partial)) partial record(s); the rest of each record was kept)",
        summary.setAsideByReason.sorted { $0.key < $1.key }.map {
          ($0.key.rawValue, count($0.value))
        })
      for (position, field) in summary.setAsideSamples {
        partial += "  \(position): \(field.path): \(field.detail)\n"
      }
      if fields > summary.setAsideSamples.count {
        partial +=
          "  … and \(count(fields - summary.setAsideSamples.count)) more; receipt-migrate explain ACCOUNT shows an account's.\n"
      }
      lines.append(partial)
    }
    if summary.quarantined > 0 {
      var quarantine = section(
        "Quarantined in this run",
        summary.quarantinedByReason.sorted { $0.key < $1.key }.map {
          ($0.key.rawValue, count($0.value))
        })
      for entry in summary.quarantineSamples {
        quarantine += "  \(entry.position): \(entry.detail)\n"
      }
      if summary.quarantined > summary.quarantineSamples.count {
        quarantine +=
          "  … and \(count(summary.quarantined - summary.quarantineSamples.count)) more in the quarantine table.\n"
      }
      lines.append(quarantine)
    }
    if !summary.skippedFiles.isEmpty {
      lines.append(
        section(
          "Skipped files", summary.skippedFiles.map { ($0.path, $0.reason) }, alignRight: false))
    }
    return lines.joined(separator: "\n")
  }

  /// A titled block of label/value lines, labels padded and values right-aligned.
  private static func section(_ title: String, _ rows: [(String, String)], alignRight: Bool = true)
    -> String
  {
    let labelWidth = rows.map(\.0.count).max() ?? 0
    let valueWidth = rows.map(\.1.count).max() ?? 0
    var text = title + "\n"
    for (label, value) in rows {
      let padding = String(repeating: " ", count: labelWidth - label.count)
      if alignRight {
        text +=
          "  " + label + padding + "  " + String(repeating: " ", count: valueWidth - value.count)
          + value + "\n"
      } else {
        text += "  " + label + ": " + value + "\n"
      }
    }
    if rows.isEmpty { text += "  (none)\n" }
    return text
  }

  private static func entitlementRows(_ counts: [String: Int]) -> [(String, String)] {
    EntitlementStatus.allCases.map { ($0.rawValue, count(counts[$0.rawValue] ?? 0)) }
  }

  private static func count(_ value: Int) -> String { NumberFormatting.grouped(value) }

  private static func megabytes(_ bytes: Int64) -> String {
    bytes < 1_000_000
      ? NumberFormatting.decimal(Double(bytes) / 1000, fractionDigits: 1) + " kB"
      : NumberFormatting.decimal(Double(bytes) / 1_000_000, fractionDigits: 1) + " MB"
  }

  // MARK: - JSON

  /// The summary as JSON (the `--json` output, also stored with the ingest run).
  ///
  /// - Parameters:
  ///   - summary: the summary.
  ///   - style: compact or pretty.
  /// - Returns: the JSON text.
  public static func json(_ summary: IngestSummary, style: JSONWriter.Style) -> String {
    var writer = JSONWriter(style: style)
    writer.beginObject()
    writer.field("schema_version", jsonSchemaVersion)
    writer.field("records_read", summary.recordsRead)
    writer.field("accepted", summary.accepted)
    writer.field("partial", summary.partial)
    writer.field("new_records", summary.newRecords)
    writer.field("already_stored", summary.alreadyStored)
    writer.field("quarantined", summary.quarantined)
    object(&writer, "accepted_by_kind", summary.acceptedByKind)
    object(
      &writer, "quarantined_by_reason",
      Dictionary(
        uniqueKeysWithValues: summary.quarantinedByReason.map { ($0.key.rawValue, $0.value) }))
    object(
      &writer, "set_aside_by_reason",
      Dictionary(
        uniqueKeysWithValues: summary.setAsideByReason.map { ($0.key.rawValue, $0.value) }))
    writer.key("set_aside_samples")
    writer.beginArray()
    for (position, field) in summary.setAsideSamples {
      writer.beginObject()
      writer.field("path", position.path)
      writer.field("line", position.line)
      writer.field("byte_offset", position.byteOffset)
      writer.field("field", field.path)
      writer.field("reason", field.reason.rawValue)
      writer.field("detail", field.detail)
      writer.field("excerpt", field.excerpt)
      writer.endObject()
    }
    writer.endArray()
    writer.key("quarantine_samples")
    writer.beginArray()
    for entry in summary.quarantineSamples {
      writer.beginObject()
      writer.field("path", entry.position.path)
      writer.field("line", entry.position.line)
      writer.field("byte_offset", entry.position.byteOffset)
      writer.field("reason", entry.reason.rawValue)
      writer.field("detail", entry.detail)
      writer.endObject()
    }
    writer.endArray()
    writer.key("skipped_files")
    writer.beginArray()
    for (path, reason) in summary.skippedFiles {
      writer.beginObject()
      writer.field("path", path)
      writer.field("reason", reason)
      writer.endObject()
    }
    writer.endArray()
    writer.field("bytes_read", summary.bytesRead)
    writer.field("duration_ms", summary.durationMilliseconds)
    writer.field("as_of", summary.asOf?.iso8601)
    writer.key("store")
    let totals = summary.totals
    writer.beginObject()
    writer.field("accounts", totals.accounts)
    writer.field("records", totals.records)
    writer.field("partial_records", totals.partialRecords)
    object(&writer, "set_aside_by_reason", totals.setAsideByReason)
    writer.field("distinct_original_transaction_ids", totals.distinctOriginalTransactionIds)
    writer.field("accounts_without_ids", totals.accountsWithoutIds)
    writer.field("raw_receipts_without_ids", totals.rawReceiptsPending)
    object(&writer, "records_by_environment", totals.recordsByEnvironment)
    object(
      &writer, "responses_by_status",
      Dictionary(uniqueKeysWithValues: totals.responsesByStatus.map { (String($0.key), $0.value) }))
    object(&writer, "quarantined_by_reason", totals.quarantinedByReason)
    object(&writer, "old_entitlements_at_capture", totals.oldEntitlementsByStatus)
    if summary.asOf != nil {
      object(&writer, "old_entitlements_as_of", summary.oldEntitlementsAsOfByStatus)
    }
    writer.endObject()
    writer.endObject()
    return writer.string
  }

  private static func object(_ writer: inout JSONWriter, _ name: String, _ counts: [String: Int]) {
    writer.key(name)
    writer.beginObject()
    for (key, value) in counts.sorted(by: { $0.key < $1.key }) { writer.field(key, value) }
    writer.endObject()
  }
}
