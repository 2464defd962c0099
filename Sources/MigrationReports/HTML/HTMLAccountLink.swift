/// An account id as report.html writes it anywhere on the page: a link to the account's row
/// (`#account=<id>`, which filters the list to it, scrolls there and opens its evidence).
enum HTMLAccountLink {
  /// The id, escaped, inside a link to its row.
  ///
  /// - Parameter accountId: the id the report shows (a pseudonym under redaction).
  /// - Returns: the `<a>` element.
  static func to(_ accountId: String) -> String {
    "<a class=\"acct\" href=\"#account=\(HTMLText.escape(fragmentValue(accountId)))\">"
      + HTMLText.escape(accountId) + "</a>"
  }

  /// A value percent-encoded for an address's fragment as `URLSearchParams` reads it: every
  /// byte but unreserved ASCII letters, digits, `-`, `.`, `_` and `~` as `%XX`, so `&`, `=`,
  /// `+`, `#` and `%` inside an id cannot change what the fragment says.
  static func fragmentValue(_ text: String) -> String {
    var encoded = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        encoded.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = String(byte, radix: 16, uppercase: true)
        encoded += "%" + (hex.count == 1 ? "0" : "") + hex
      }
    }
    return encoded
  }
}
