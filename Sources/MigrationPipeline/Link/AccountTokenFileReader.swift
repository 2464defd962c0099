import CryptoSupport
import Entitlements
import Foundation

/// Reads the team's token mapping (`--tokens FILE`): a CSV with the header
/// `account_id,app_account_token` (columns found by name, any order). Rows that cannot be used
/// are quarantined with their file, line and reason, and the rest is read: a row with too few
/// fields, an empty account id, a token that is not a UUID, a token another account already
/// holds (two accounts with one token would make every purchase of one a leak of the other),
/// or a second, different token for an account.
public enum AccountTokenFileReader {
  /// Why the file cannot be used at all.
  public struct Failure: Error, CustomStringConvertible {
    /// The explanation.
    public var description: String
  }

  /// Reads a mapping file.
  ///
  /// - Parameter path: the CSV file.
  /// - Returns: the mapping and the quarantined rows.
  /// - Throws: ``Failure`` when the file cannot be read or has no usable header.
  public static func read(_ path: String) throws -> AccountTokenMappingFile {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw Failure(description: "the token mapping \(path) cannot be read")
    }
    return try parse(String(decoding: data, as: UTF8.self), path: path)
  }

  /// Parses a mapping's text.
  ///
  /// - Parameters:
  ///   - text: the CSV text.
  ///   - path: the file's name, for quarantine entries and messages.
  /// - Returns: the mapping and the quarantined rows.
  /// - Throws: ``Failure`` when the text has no usable header.
  public static func parse(_ text: String, path: String) throws -> AccountTokenMappingFile {
    // Lines end as in the entitlement table (LF, CRLF or a lone CR: spreadsheets write CRLF),
    // not at every Unicode line break: a vertical tab or U+2028 inside a row stays in its field,
    // whose check then names it, instead of silently cutting the row in two.
    var splitter = LineSplitter()
    var lines = splitter.feed(Data(text.utf8))
    if let last = splitter.finish() { lines.append(last) }
    let names =
      lines.first.map {
        CSVFields.split(CSVFields.withoutByteOrderMark(Substring($0))).map { $0.lowercased() }
      } ?? []
    guard let accountColumn = names.firstIndex(of: "account_id"),
      let tokenColumn = names.firstIndex(of: "app_account_token")
    else {
      throw Failure(
        description:
          "the token mapping \(path) must start with the header account_id,app_account_token; "
          + "found \(names.joined(separator: ","))")
    }
    var file = AccountTokenMappingFile(path: path)
    for (offset, line) in lines.enumerated().dropFirst() {
      let lineNumber = offset + 1
      func quarantine(_ reason: String) {
        file.quarantined.append(.init(path: path, line: lineNumber, reason: reason))
      }
      if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
      file.rowsRead += 1
      if CSVFields.hasUnclosedQuote(Substring(line)) {
        quarantine(CSVFields.unclosedQuoteReason)
        continue
      }
      let values = CSVFields.split(Substring(line))
      guard values.count > max(accountColumn, tokenColumn) else {
        quarantine("the row has \(values.count) field(s); expected account_id,app_account_token")
        continue
      }
      let account = values[accountColumn]
      let token = values[tokenColumn]
      guard !account.isEmpty else {
        quarantine("account_id is empty")
        continue
      }
      guard NameBasedUUID.bytes(of: token) != nil else {
        quarantine("app_account_token \"\(token)\" is not a UUID (8-4-4-4-12 hexadecimal digits)")
        continue
      }
      switch file.mapping.add(token: token, forAccount: account) {
      case nil: break
      case .tokenHeldBy(let holder)?:
        quarantine("the token \(token.lowercased()) already belongs to account \(holder)")
      case .accountHasToken(let existing)?:
        quarantine("account \(account) already has the token \(existing) on an earlier line")
      }
    }
    return file
  }
}
