import Chronology
import Entitlements
import Foundation
import LegacyReceipts
import Synchronization

/// Reads the team's current entitlement table (`--current-entitlements FILE`): a CSV with the
/// header `account_id,product_id,status,expires_at` (columns found by name, any order; `status`
/// one of `active`, `expired`, `billing_retry`, `grace_period`, `revoked`, or `entitled` /
/// `not_entitled`; `expires_at` ISO 8601 or Unix ms, optional), and optionally
/// `original_transaction_id` and `app_transaction_id` (the customer's id, so that an account the
/// legacy data does not hold can be backfilled). Bad rows are rejected with their line and
/// reason, and the rest is read.
public enum CurrentEntitlementsReader {
  /// What was read.
  public struct Table: Sendable {
    /// Rows by account, told apart by their bytes as the store tells them apart.
    public var rows: [AccountKey: [TableRow]]
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

  /// Reads a whole table into memory.
  ///
  /// - Parameter path: the CSV file.
  /// - Returns: the rows by account, with the rejected lines.
  /// - Throws: ``Failure`` when the file cannot be read, is empty or lacks a required column.
  public static func read(_ path: String) throws -> Table {
    var table = Table(rows: [:], rowsRead: 0, rejected: [])
    let outcome = try read(path) { rows in
      for (account, row) in rows { table.rows[AccountKey(account), default: []].append(row) }
    }
    table.rowsRead = outcome.rowsRead
    table.rejected = outcome.rejected
    return table
  }

  /// Accepted rows, in file order.
  public typealias Rows = [(accountId: String, row: TableRow)]

  /// What reading a table found besides its accepted rows.
  public typealias Outcome = (rowsRead: Int, rejected: [(line: Int, reason: String)])

  /// Reads a table a block of lines at a time, in file order, handing each block's accepted
  /// rows to `each`: a million-row table is never held whole.
  ///
  /// The file is read and parsed on a thread of its own while `each` runs on the caller's, two
  /// blocks ahead at most: `compare` stores the rows as they come, and at a million rows the
  /// parsing and the storing each took about half of the time the table cost.
  ///
  /// - Parameters:
  ///   - path: the CSV file.
  ///   - each: receives accepted rows (account id and row), a few thousand at a time, on the
  ///     caller's thread.
  /// - Returns: how many rows were read and the lines rejected, with their reasons.
  /// - Throws: ``Failure`` when the file cannot be read, is empty or lacks a required column;
  ///   what `each` throws (the parsing then stops).
  public static func read(_ path: String, each: (Rows) throws -> Void) throws -> Outcome {
    let blocks = BoundedHandoff<Rows>(capacity: 2)
    let outcome = Mutex<Result<Outcome, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    let parser = Thread {
      let result = Result {
        try parse(path) { rows in
          // Refused only when the caller has stopped taking: its error is the one to report.
          guard blocks.put(rows) else { throw CancellationError() }
        }
      }
      outcome.withLock { $0 = result }
      blocks.close()
      done.signal()
    }
    parser.name = "team-table-reader"
    parser.start()
    var failure: (any Error)?
    while let rows = blocks.take() {
      do {
        try each(rows)
      } catch {
        failure = error
        blocks.close()
        break
      }
    }
    done.wait()
    if let failure { throw failure }
    guard let result = outcome.withLock({ $0 }) else {
      preconditionFailure("the team table's reader signalled before recording its outcome")
    }
    return try result.get()
  }

  /// Reads and parses the table on the calling thread, handing each block of accepted rows to
  /// `emit`.
  private static func parse(_ path: String, emit: (Rows) throws -> Void) throws -> Outcome {
    guard let file = FileHandle(forReadingAtPath: path) else {
      throw Failure(description: "the current entitlements file \(path) cannot be read")
    }
    defer { try? file.close() }
    var lines = LineSplitter()
    var columns: Columns?
    var rowsRead = 0
    var rejected: [(line: Int, reason: String)] = []
    var accepted: Rows = []
    var number = 0
    func take(_ line: String) throws {
      number += 1
      guard let columns else {
        columns = try Columns(header: line, path: path)
        return
      }
      if CSVFields.trimmed(Substring(line), newlines: true).isEmpty { return }
      rowsRead += 1
      // Split as it stands, not trimmed: a space before a quote makes the quote data.
      let text = Substring(line)
      if CSVFields.hasUnclosedQuote(text) {
        rejected.append((number, CSVFields.unclosedQuoteReason))
        return
      }
      switch columns.row(fields(text)) {
      case .success(let row): accepted.append(row)
      case .failure(let reason): rejected.append((number, reason.description))
      }
      if accepted.count >= 4_096 {
        try emit(accepted)
        accepted = []
        accepted.reserveCapacity(4_096)
      }
    }
    while true {
      let block: Data
      do {
        guard let read = try file.read(upToCount: 1 << 20), !read.isEmpty else { break }
        block = read
      } catch {
        throw Failure(description: "the current entitlements file \(path) cannot be read: \(error)")
      }
      for line in lines.feed(block) { try take(line) }
    }
    if let last = lines.finish() { try take(last) }
    guard columns != nil else {
      throw Failure(description: "the current entitlements file \(path) is empty")
    }
    if !accepted.isEmpty { try emit(accepted) }
    return (rowsRead, rejected)
  }

  /// Whether a table carries a customer id column (`original_transaction_id` or
  /// `app_transaction_id`).
  ///
  /// - Parameter path: the CSV file.
  /// - Returns: whether it does.
  /// - Throws: ``Failure`` when it cannot be read or lacks a required column.
  public static func carriesCustomerIds(_ path: String) throws -> Bool {
    let columns = try headerColumns(path)
    return columns.originalTransactionId != nil || columns.appTransactionId != nil
  }

  /// Checks, before any work, that a table can be read and has the required columns.
  ///
  /// - Parameter path: the CSV file.
  /// - Throws: ``Failure`` naming the file and what is wrong.
  public static func validate(_ path: String) throws {
    _ = try headerColumns(path)
  }

  /// The columns of a table's header line, read from its first block alone.
  private static func headerColumns(_ path: String) throws -> Columns {
    guard let file = FileHandle(forReadingAtPath: path) else {
      throw Failure(description: "the current entitlements file \(path) cannot be read")
    }
    defer { try? file.close() }
    var lines = LineSplitter()
    let block = (try? file.read(upToCount: 1 << 16)) ?? nil
    guard let header = lines.feed(block ?? Data()).first ?? lines.finish() else {
      throw Failure(description: "the current entitlements file \(path) is empty")
    }
    return try Columns(header: header, path: path)
  }

  /// Where the columns are, from the header line.
  private struct Columns {
    let account: Int
    let product: Int
    let status: Int
    let expires: Int?
    let originalTransactionId: Int?
    let appTransactionId: Int?

    init(header: String, path: String) throws {
      let names = CurrentEntitlementsReader.fields(
        CSVFields.withoutByteOrderMark(Substring(header))
      ).map { $0.lowercased() }
      guard let account = names.firstIndex(of: "account_id"),
        let product = names.firstIndex(of: "product_id"),
        let status = names.firstIndex(of: "status")
      else {
        throw Failure(
          description:
            "the current entitlements file \(path) must have the columns account_id, product_id, status (and optionally expires_at); found \(names.joined(separator: ","))"
        )
      }
      self.account = account
      self.product = product
      self.status = status
      expires = names.firstIndex(of: "expires_at")
      originalTransactionId = names.firstIndex(of: "original_transaction_id")
      appTransactionId = names.firstIndex(of: "app_transaction_id")
    }

    func row(_ values: [String]) -> Result<(accountId: String, row: TableRow), Rejection> {
      guard values.count > max(account, product, status) else {
        return .failure(Rejection("the row has \(values.count) fields"))
      }
      guard !values[account].isEmpty, !values[product].isEmpty else {
        return .failure(Rejection("account_id and product_id must not be empty"))
      }
      guard let label = CurrentEntitlementsReader.parseStatus(values[status]) else {
        return .failure(Rejection("unknown status '\(values[status])'"))
      }
      var expiry: Timestamp?
      if let expires, expires < values.count, !values[expires].isEmpty {
        guard let parsed = Timestamp(parsing: values[expires]) else {
          return .failure(Rejection("expires_at '\(values[expires])' is not an instant"))
        }
        expiry = parsed
      }
      func value(_ column: Int?) -> String? {
        guard let column, column < values.count, !values[column].isEmpty else { return nil }
        return values[column]
      }
      return .success(
        (
          values[account],
          TableRow(
            productId: values[product], status: label, expiresAt: expiry,
            customerId: value(originalTransactionId) ?? value(appTransactionId))
        ))
    }
  }

  /// Why a line was rejected.
  private struct Rejection: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  private static func parseStatus(_ text: String) -> EntitlementStatus? {
    // Most tables write the statuses as documented, in lower case: no copy to lower it.
    if let status = EntitlementStatus(rawValue: text) { return status }
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
