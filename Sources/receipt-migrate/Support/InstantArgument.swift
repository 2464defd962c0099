import ArgumentParsing
import Chronology

/// Parses instants given on the command line: ISO 8601, Unix seconds or Unix milliseconds.
///
/// A bare number is read by its size, so that both of the common forms work unambiguously:
/// below 100,000,000,000 it is Unix **seconds** (that covers every instant up to the year 5138),
/// from there up it is Unix **milliseconds** (every instant after 3 March 1973). So
/// `1761955200` and `1761955200000` are both 1 November 2025; before, the first was read as
/// milliseconds and meant January 1970.
enum InstantArgument {
  /// The smallest bare number read as milliseconds.
  static let millisecondsFrom: Int64 = 100_000_000_000

  static func parse(_ text: String) throws -> Timestamp {
    let trimmed = text.trimmingPrefix(while: { $0 == " " })
    if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      trimmed.count != 8, let number = Int64(trimmed), number < millisecondsFrom
    {
      return Timestamp(millisecondsSince1970: number * 1000)
    }
    guard let instant = Timestamp(parsing: text) else {
      throw ValidationError(
        "'\(text)' is not an instant; use ISO 8601 (2024-06-15T12:00:00Z, 2024-06-15), Unix "
          + "seconds (1718452800) or Unix milliseconds (1718452800000)")
    }
    return instant
  }
}
