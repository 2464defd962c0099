/// The fields of one line of a team's CSV file (RFC 4180 quoting, surrounding spaces trimmed):
/// shared by the readers of the entitlement table and the token mapping.
enum CSVFields {
  /// Splits one line into its fields.
  ///
  /// - Parameter line: the line, without its line break.
  /// - Returns: the fields, unquoted and trimmed.
  static func split(_ line: Substring) -> [String] {
    var fields: [String] = []
    var current = ""
    var quoted = false
    var characters = line.makeIterator()
    var pending = characters.next()
    while let character = pending {
      pending = characters.next()
      if quoted {
        if character != "\"" {
          current.append(character)
        } else if pending == "\"" {
          // A doubled quote inside a quoted field is one quote (RFC 4180).
          current.append("\"")
          pending = characters.next()
        } else {
          quoted = false
        }
      } else if character == "\"" {
        quoted = true
      } else if character == "," {
        fields.append(current.trimmingCharacters(in: .whitespaces))
        current = ""
      } else {
        current.append(character)
      }
    }
    fields.append(current.trimmingCharacters(in: .whitespaces))
    return fields
  }
}
