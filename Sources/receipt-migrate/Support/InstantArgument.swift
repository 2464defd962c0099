import ArgumentParsing
import Chronology

/// Parses instants given on the command line.
enum InstantArgument {
  static func parse(_ text: String) throws -> Timestamp {
    guard let instant = Timestamp(parsing: text) else {
      throw ValidationError(
        "'\(text)' is not an instant; use ISO 8601 (2024-06-15T12:00:00Z, 2024-06-15) or Unix milliseconds"
      )
    }
    return instant
  }
}
