/// The input formats `ingest` reads.
public enum LegacyInputFormat: String, CaseIterable, Hashable, Sendable {
  /// One record per line: `{"account_id": "...", "response": {...}}` or
  /// `{"account_id": "...", "receipt_data": "<base64>"}`.
  case ndjson
  /// One stored verifyReceipt response per `.json` file; the account id is the file's
  /// `account_id` field or else the file name without its extension.
  case json
  /// `account_id,original_transaction_id[,environment]` rows, for teams that already hold ids.
  case csv

  /// The format a file's name suggests: `.ndjson`/`.jsonl`, `.json`, `.csv`.
  ///
  /// - Parameter path: the file's path.
  /// - Returns: the format, or `nil` for any other extension.
  public static func forExtension(of path: String) -> LegacyInputFormat? {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
    switch name[name.index(after: dot)...].lowercased() {
    case "ndjson", "jsonl": return .ndjson
    case "json": return .json
    case "csv": return .csv
    default: return nil
    }
  }
}
