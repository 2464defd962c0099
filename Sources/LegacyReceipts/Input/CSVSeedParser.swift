/// Parses the seed CSV format, `account_id` and at least one of `original_transaction_id`,
/// `app_transaction_id` and `order_id` (and optionally `environment`), one row at a time.
/// Columns are found by their header names (any order, any case, extra columns ignored);
/// fields may be quoted with `"` and `""` for a quote inside, and a quoted field may hold line
/// breaks (RFC 4180): the reader joins such a row's lines before it gets here. Quotes are read
/// as Python's `csv` module reads them: a quote opens quoting only as a field's first character
/// (after a space, or in mid-field, it is data).
///
/// An id that cannot be used (masked, rewritten by a spreadsheet) is set aside; the row is
/// kept as long as one of its ids can be used.
struct CSVSeedParser {
  struct Columns {
    var accountId: Int
    var originalTransactionId: Int?
    var appTransactionId: Int?
    var orderId: Int?
    var environment: Int?
  }

  struct Row {
    var accountId: String
    var originalTransactionId: String?
    var appTransactionId: String?
    var orderId: String?
    var environment: ReceiptEnvironment?
    var setAside: [SetAsideField]
  }

  let columns: Columns

  /// The id columns, by name, in the order rows are checked.
  static let idColumns = ["original_transaction_id", "app_transaction_id", "order_id"]

  /// Reads the header row.
  ///
  /// - Throws: ``RecordRejection`` when a required column is missing.
  init(header: UnsafeRawBufferPointer) throws(RecordRejection) {
    let names = try CSVSeedParser.fields(of: header).map {
      $0.trimmingCharacters(in: " \u{FEFF}").lowercased()
    }
    let original = names.firstIndex(of: "original_transaction_id")
    let appTransaction = names.firstIndex(of: "app_transaction_id")
    let order = names.firstIndex(of: "order_id")
    guard let account = names.firstIndex(of: "account_id"),
      original != nil || appTransaction != nil || order != nil
    else {
      throw RecordRejection(
        .badCSVHeader,
        "the header must name the column account_id and at least one of original_transaction_id, app_transaction_id and order_id (and optionally environment); found '\(names.joined(separator: ","))'"
      )
    }
    columns = Columns(
      accountId: account, originalTransactionId: original, appTransactionId: appTransaction,
      orderId: order, environment: names.firstIndex(of: "environment"))
  }

  /// Reads one data row.
  ///
  /// - Throws: ``RecordRejection`` naming the problem, when the row has no account or no id
  ///   that can be used.
  func row(_ bytes: UnsafeRawBufferPointer) throws(RecordRejection) -> Row {
    let fields = try CSVSeedParser.fields(of: bytes)
    let idColumns = [columns.originalTransactionId, columns.appTransactionId, columns.orderId]
    let needed = ([columns.accountId] + idColumns.compactMap { $0 }).max() ?? columns.accountId
    guard fields.count > needed else {
      throw RecordRejection(
        .badCSVRow, "the row has \(fields.count) fields; the header needs at least \(needed + 1)")
    }
    let account = fields[columns.accountId].trimmingCharacters(in: " ")
    guard !account.isEmpty else { throw RecordRejection(.missingAccountId, "account_id is empty") }
    var row = Row(accountId: account, setAside: [])
    for (name, column) in zip(Self.idColumns, idColumns) {
      guard let column else { continue }
      let text = fields[column].trimmingCharacters(in: " ")
      guard !text.isEmpty else { continue }
      let problem =
        name == "order_id"
        ? OrderIdentifierCheck.problem(with: text, field: name)
        : DamageCollector.problem(withIdentifier: text, field: name)
      if let problem {
        row.setAside.append(
          SetAsideField(
            path: name, reason: problem.reason, detail: problem.detail,
            excerpt: DamageCollector.excerpt(of: Array(text.utf8))))
        continue
      }
      switch name {
      case "original_transaction_id": row.originalTransactionId = text
      case "app_transaction_id": row.appTransactionId = text
      default: row.orderId = text
      }
    }
    guard row.originalTransactionId != nil || row.appTransactionId != nil || row.orderId != nil
    else {
      if let first = row.setAside.first {
        // Every id the row holds is unusable: nothing of it can be used.
        throw RecordRejection(
          first.reason, row.setAside.map(\.detail).joined(separator: "; "))
      }
      if idColumns.compactMap({ $0 }).count == 1, columns.originalTransactionId != nil {
        throw RecordRejection(.malformedTransactionId, "original_transaction_id is empty")
      }
      throw RecordRejection(
        .badCSVRow,
        "the row names no id: "
          + zip(Self.idColumns, idColumns).filter { $0.1 != nil }.map(\.0).joined(separator: ", ")
          + " are empty")
    }
    if let column = columns.environment, column < fields.count {
      let text = fields[column].trimmingCharacters(in: " ")
      row.environment = text.isEmpty ? nil : ReceiptEnvironment(text)
    }
    return row
  }

  /// Whether `bytes` end inside a quoted field: RFC 4180 lets a quoted field hold line breaks,
  /// so the row goes on on the next line.
  static func endsInsideQuotes(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var inQuotes = false
    var fieldStart = true
    var justClosed = false
    for byte in bytes {
      if byte == UInt8(ascii: "\"") {
        if inQuotes {
          inQuotes = false
          justClosed = true
          continue
        }
        // A quote opens a field at its start; right after a closing quote it is the second
        // half of `""`, a quote inside the field, and the field goes on.
        if fieldStart || justClosed {
          inQuotes = true
          fieldStart = false
          justClosed = false
          continue
        }
      } else if byte == UInt8(ascii: ","), !inQuotes {
        fieldStart = true
        justClosed = false
        continue
      }
      // Any other byte, a space too, ends the field's start: a quote after it is data, as
      // Python's csv module reads it.
      justClosed = false
      fieldStart = false
    }
    return inQuotes
  }

  /// Splits one line into fields, honouring quotes.
  static func fields(of bytes: UnsafeRawBufferPointer) throws(RecordRejection) -> [String] {
    guard String(validating: bytes, as: UTF8.self) != nil else {
      throw RecordRejection(.invalidUTF8, "the row is not valid UTF-8")
    }
    var fields: [String] = []
    var current: [UInt8] = []
    var index = 0
    var inQuotes = false
    var wasQuoted = false
    while index < bytes.count {
      let byte = bytes[index]
      if inQuotes {
        if byte == UInt8(ascii: "\"") {
          if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") {
            current.append(byte)
            index += 1
          } else {
            inQuotes = false
          }
        } else {
          current.append(byte)
        }
      } else if byte == UInt8(ascii: ",") {
        fields.append(String(decoding: current, as: UTF8.self))
        current.removeAll(keepingCapacity: true)
        wasQuoted = false
      } else if byte == UInt8(ascii: "\"") && current.isEmpty && !wasQuoted {
        // Only a field's first character opens quoting: ` "a"` is the five characters as they
        // stand (trimmed to `"a"`), as Python's csv module reads them.
        inQuotes = true
        wasQuoted = true
      } else {
        current.append(byte)
      }
      index += 1
    }
    guard !inQuotes else { throw RecordRejection(.badCSVRow, "unterminated quoted field") }
    fields.append(String(decoding: current, as: UTF8.self))
    return fields
  }
}

extension String {
  fileprivate func trimmingCharacters(in set: String) -> String {
    let characters = Set(set)
    var start = startIndex
    var end = endIndex
    while start < end, characters.contains(self[start]) { start = index(after: start) }
    while end > start, characters.contains(self[index(before: end)]) { end = index(before: end) }
    return String(self[start..<end])
  }
}
