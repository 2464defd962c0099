import Chronology
import JSON

/// Collects the spellings of one date field while a transaction is read — `x_ms`, `x`,
/// `x_pst` or `x_formatted` — and picks the best one afterwards: milliseconds first.
///
/// The string forms are remembered as byte ranges and only parsed when no milliseconds field
/// exists, so the common case allocates nothing for dates.
struct DateSlot {
  var milliseconds: Int64?
  /// The plain field (`purchase_date`): a GMT date string, or epoch ms in the iOS 6 style.
  var text: Range<Int>?
  /// A fallback spelling (`purchase_date_pst`, `expires_date_formatted`).
  var alternative: Range<Int>?

  /// The resolved instant.
  ///
  /// - Parameters:
  ///   - bytes: the document the ranges point into.
  ///   - field: the field's base name, for errors.
  func resolve(in bytes: UnsafeRawBufferPointer, field: String) throws -> Timestamp? {
    if let milliseconds { return Timestamp(millisecondsSince1970: milliseconds) }
    for (range, suffix) in [(text, ""), (alternative, "_alt")] {
      guard let range else { continue }
      var reader = JSONReader(UnsafeRawBufferPointer(rebasing: bytes[range]))
      let value: String?
      do {
        value = try reader.readLenientString()
      } catch {
        throw LegacyDecodingError(.json(error), path: [field + suffix])
      }
      guard let value, !value.isEmpty else { continue }
      guard let parsed = LegacyDateParser.parse(value) else {
        throw LegacyDecodingError(.unparsableDate(value), path: [field])
      }
      return parsed
    }
    return nil
  }
}
