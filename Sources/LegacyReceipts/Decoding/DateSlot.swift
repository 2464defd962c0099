import Chronology
import JSON

/// Collects the spellings of one date field while a transaction is read — `x_ms`, `x`,
/// `x_pst` or `x_formatted` — and picks the best one afterwards: milliseconds first.
///
/// The string forms are remembered as byte ranges and only parsed when no milliseconds field
/// exists, so the common case allocates nothing for dates. A spelling that cannot be read is
/// set aside, and the next one is tried.
struct DateSlot {
  var milliseconds: Int64?
  /// The plain field (`purchase_date`): a GMT date string, or epoch ms in the iOS 6 style.
  var text: Range<Int>?
  /// A fallback spelling (`purchase_date_pst`, `expires_date_formatted`).
  var alternative: Range<Int>?
  /// How the fallback spelling's name ends (`_pst`, or `_formatted` in the iOS 6 layout).
  var alternativeSuffix: StaticString = "_pst"
  /// Whether the `_ms` field was there but set aside.
  var isDamaged = false

  /// Reads the `_ms` spelling; a value that is not an integer is set aside.
  mutating func readMilliseconds(
    _ field: StaticString, _ reader: inout JSONReader, _ bytes: UnsafeRawBufferPointer,
    _ damage: inout DamageCollector
  ) throws(JSONError) {
    milliseconds = try damage.integer(field, from: &reader, in: bytes)
    if damage.lastWasSetAside { isDamaged = true }
  }

  /// The resolved instant, and whether the date was there but no spelling of it could be used
  /// (its spellings are then set aside in `damage`).
  ///
  /// - Parameters:
  ///   - bytes: the document the ranges point into.
  ///   - field: the field's base name, for the set-aside path.
  ///   - damage: where set-aside spellings are noted.
  func resolve(in bytes: UnsafeRawBufferPointer, field: String, damage: inout DamageCollector)
    -> (instant: Timestamp?, isUnusable: Bool)
  {
    if let milliseconds { return (Timestamp(millisecondsSince1970: milliseconds), false) }
    var isUnusable = isDamaged
    for (range, isAlternative) in [(text, false), (alternative, true)] {
      guard let range else { continue }
      // Spelled out only when a spelling is set aside.
      var name: String { isAlternative ? field + alternativeSuffix.description : field }
      let value = UnsafeRawBufferPointer(rebasing: bytes[range])
      var reader = JSONReader(value)
      let parsed: String?
      do {
        parsed = try reader.readLenientString()
      } catch {
        damage.setAside(
          name, .wrongType, error.reason, value: value, at: range.lowerBound)
        isUnusable = true
        continue
      }
      guard let parsed, !parsed.isEmpty else { continue }
      if let instant = LegacyDateParser.parse(parsed) { return (instant, false) }
      if MaskedValue.isMask(parsed) {
        damage.setAside(
          name, .masked, "the date is masked ('\(parsed.prefix(40))')", value: value,
          at: range.lowerBound)
      } else {
        damage.setAside(
          name, .unparsableDate, "unparsable date '\(parsed.prefix(60))'", value: value,
          at: range.lowerBound)
      }
      isUnusable = true
    }
    return (nil, isUnusable)
  }
}
