/// Parses the seed CSV format, `account_id,original_transaction_id[,environment]`, one row at a
/// time. Columns are found by their header names (any order, any case, extra columns
/// ignored); fields may be quoted with `"` and `""` for a quote inside, and a quoted field may
/// hold line breaks (RFC 4180): the reader joins such a row's lines before it gets here. Quotes
/// are read as Python's `csv` module reads them: a quote opens quoting only as a field's first
/// character (after a space, or in mid-field, it is data).
struct CSVSeedParser {
  struct Columns {
    var accountId: Int
    var originalTransactionId: Int
    var environment: Int?
  }

  struct Row {
    var accountId: String
    var originalTransactionId: String
    var environment: ReceiptEnvironment?
  }

  let columns: Columns

  /// Reads the header row.
  ///
  /// - Throws: ``RecordRejection`` when a required column is missing.
  init(header: UnsafeRawBufferPointer) throws(RecordRejection) {
    let names = try CSVSeedParser.fields(of: header).map {
      $0.trimmingCharacters(in: " \u{FEFF}").lowercased()
    }
    guard let account = names.firstIndex(of: "account_id"),
      let original = names.firstIndex(of: "original_transaction_id")
    else {
      throw RecordRejection(
        .badCSVHeader,
        "the header must name the columns account_id and original_transaction_id (and optionally environment); found '\(names.joined(separator: ","))'"
      )
    }
    columns = Columns(
      accountId: account, originalTransactionId: original,
      environment: names.firstIndex(of: "environment"))
  }

  /// Reads one data row.
  ///
  /// - Throws: ``RecordRejection`` naming the problem.
  func row(_ bytes: UnsafeRawBufferPointer) throws(RecordRejection) -> Row {
    let fields = try CSVSeedParser.fields(of: bytes)
    let needed = max(columns.accountId, columns.originalTransactionId)
    guard fields.count > needed else {
      throw RecordRejection(
        .badCSVRow, "the row has \(fields.count) fields; the header needs at least \(needed + 1)")
    }
    let account = fields[columns.accountId].trimmingCharacters(in: " ")
    guard !account.isEmpty else { throw RecordRejection(.missingAccountId, "account_id is empty") }
    let id = fields[columns.originalTransactionId].trimmingCharacters(in: " ")
    try CSVSeedParser.validateTransactionId(id)
    var environment: ReceiptEnvironment?
    if let column = columns.environment, column < fields.count {
      let text = fields[column].trimmingCharacters(in: " ")
      environment = text.isEmpty ? nil : ReceiptEnvironment(text)
    }
    return Row(accountId: account, originalTransactionId: id, environment: environment)
  }

  /// Transaction ids are strings of digits. Spreadsheets turn them into `1.00000071234567E+15`
  /// or `1000000712345678.0`, losing digits: say so rather than query Apple with a wrong id.
  static func validateTransactionId(_ id: String) throws(RecordRejection) {
    if let problem = TransactionIdentifierCheck.problem(with: id, field: "original_transaction_id")
    {
      throw RecordRejection(.malformedTransactionId, problem)
    }
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
