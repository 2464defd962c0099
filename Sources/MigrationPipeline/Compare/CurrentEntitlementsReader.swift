import Chronology
import Entitlements
import Foundation
import LegacyReceipts

/// Reads the team's current entitlement table (`--current-entitlements FILE`): a CSV with the
/// header `account_id,product_id,status,expires_at` (columns found by name, any order; `status`
/// one of `active`, `expired`, `billing_retry`, `grace_period`, `revoked`, or `entitled` /
/// `not_entitled`; `expires_at` ISO 8601 or Unix ms, optional). Bad rows are rejected with their
/// line and reason, and the rest is read.
public enum CurrentEntitlementsReader {
  /// What was read.
  public struct Table: Sendable {
    /// Rows by account.
    public var rows: [String: [TableRow]]
    /// Rows read.
    public var rowsRead: Int
    /// Rejected rows: line and reason.
    public var rejected: [(line: Int, reason: String)]
  }

  /// Why the file cannot be used at all.
  public struct Failure: Error, CustomStringConvertible {
    /// The explanation.
    public var description: String
  }

  /// Reads a table file.
  ///
  /// - Parameter path: the CSV file.
  /// - Returns: the rows and the rejected lines.
  /// - Throws: ``Failure`` when the file cannot be read or has no usable header.
  public static func read(_ path: String) throws -> Table {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw Failure(description: "the current entitlements file \(path) cannot be read")
    }
    // `isNewline` splits LF, CRLF (one Character in Swift) and CR alike: spreadsheets write CRLF.
    let lines = String(decoding: data, as: UTF8.self).split(
      omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    guard let header = lines.first else {
      throw Failure(description: "the current entitlements file \(path) is empty")
    }
    let names = fields(header).map { $0.lowercased() }
    guard let account = names.firstIndex(of: "account_id"),
      let product = names.firstIndex(of: "product_id"),
      let status = names.firstIndex(of: "status")
    else {
      throw Failure(
        description:
          "the current entitlements file \(path) must have the columns account_id, product_id, status (and optionally expires_at); found \(names.joined(separator: ","))"
      )
    }
    let expires = names.firstIndex(of: "expires_at")
    var table = Table(rows: [:], rowsRead: 0, rejected: [])
    for (offset, line) in lines.enumerated().dropFirst() {
      let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
      if text.isEmpty { continue }
      table.rowsRead += 1
      let values = fields(Substring(text))
      guard values.count > max(account, product, status) else {
        table.rejected.append((offset + 1, "the row has \(values.count) fields"))
        continue
      }
      guard !values[account].isEmpty, !values[product].isEmpty else {
        table.rejected.append((offset + 1, "account_id and product_id must not be empty"))
        continue
      }
      guard let label = parseStatus(values[status]) else {
        table.rejected.append((offset + 1, "unknown status '\(values[status])'"))
        continue
      }
      var expiry: Timestamp?
      if let expires, expires < values.count, !values[expires].isEmpty {
        guard let parsed = Timestamp(parsing: values[expires]) else {
          table.rejected.append((offset + 1, "expires_at '\(values[expires])' is not an instant"))
          continue
        }
        expiry = parsed
      }
      table.rows[values[account], default: []].append(
        TableRow(productId: values[product], status: label, expiresAt: expiry))
    }
    return table
  }

  private static func parseStatus(_ text: String) -> EntitlementStatus? {
    switch text.lowercased() {
    case "entitled", "true", "1": return .active
    case "not_entitled", "false", "0": return .expired
    default: return EntitlementStatus(rawValue: text.lowercased())
    }
  }

  private static func fields(_ line: Substring) -> [String] {
    CSVFields.split(line)
  }
}
