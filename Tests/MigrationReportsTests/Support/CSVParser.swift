/// A strict RFC 4180 reader for checking the CSV the report writes: quoted fields with doubled
/// quotes, CRLF between records. It is independent of the writer on purpose.
enum CSVParser {
  enum Failure: Error, Equatable {
    case unterminatedQuote
    case textAfterClosingQuote(record: Int)
    case bareLineFeed(record: Int)
  }

  static func parse(_ text: String) throws -> [[String]] {
    var records: [[String]] = []
    var record: [String] = []
    var field = ""
    var scalars = Array(text.unicodeScalars)[...]
    var quoted = false
    var fieldWasQuoted = false
    while let scalar = scalars.popFirst() {
      if quoted {
        if scalar == "\"" {
          if scalars.first == "\"" {
            scalars.removeFirst()
            field.unicodeScalars.append("\"")
          } else {
            quoted = false
          }
        } else {
          field.unicodeScalars.append(scalar)
        }
        continue
      }
      switch scalar {
      case "\"" where field.isEmpty && !fieldWasQuoted:
        quoted = true
        fieldWasQuoted = true
      case ",":
        record.append(field)
        field = ""
        fieldWasQuoted = false
      case "\r" where scalars.first == "\n":
        scalars.removeFirst()
        record.append(field)
        records.append(record)
        record = []
        field = ""
        fieldWasQuoted = false
      case "\n":
        throw Failure.bareLineFeed(record: records.count)
      default:
        if fieldWasQuoted { throw Failure.textAfterClosingQuote(record: records.count) }
        field.unicodeScalars.append(scalar)
      }
    }
    if quoted { throw Failure.unterminatedQuote }
    if !field.isEmpty || !record.isEmpty {
      record.append(field)
      records.append(record)
    }
    return records
  }
}
