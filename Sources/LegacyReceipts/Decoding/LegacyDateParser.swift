import Chronology
import Foundation
import Synchronization

/// Parses the date strings of verifyReceipt responses: `2021-01-01 00:00:00 Etc/GMT`,
/// `2020-12-31 16:00:00 America/Los_Angeles` (the `*_pst` fields), ISO 8601, and digit-only
/// epoch milliseconds (the iOS 6 style `expires_date`).
///
/// Only used when a `*_ms` field is missing, which is rare, so clarity beats speed here.
public enum LegacyDateParser {
  /// Parses one date string.
  ///
  /// - Parameter text: the stored string.
  /// - Returns: the instant, or `nil` when the text is none of the known forms.
  public static func parse(_ text: String) -> Timestamp? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
      return Int64(trimmed).map(Timestamp.init(millisecondsSince1970:))
    }
    // "YYYY-MM-DD HH:MM:SS Zone"
    let parts = trimmed.split(separator: " ", omittingEmptySubsequences: true)
    if parts.count == 3, let local = Timestamp(parsing: "\(parts[0])T\(parts[1])Z") {
      let zone = String(parts[2])
      switch zone {
      case "Etc/GMT", "GMT", "UTC", "Etc/UTC", "Z": return local
      default:
        guard let offset = offsetMilliseconds(zone: zone, localTime: local) else { return nil }
        return local.adding(milliseconds: -offset)
      }
    }
    return Timestamp(parsing: trimmed)
  }

  /// The zone's offset from UTC at a wall-clock time given as if it were UTC.
  private static func offsetMilliseconds(zone identifier: String, localTime: Timestamp) -> Int64? {
    guard let zone = timeZone(identifier) else { return nil }
    // The offset at the guessed UTC instant, then once more at the corrected instant: exact
    // except inside the skipped hour of a daylight-saving change, which has no right answer.
    let guess = Date(timeIntervalSince1970: Double(localTime.millisecondsSince1970) / 1000)
    let first = zone.secondsFromGMT(for: guess)
    let corrected = guess.addingTimeInterval(-Double(first))
    return Int64(zone.secondsFromGMT(for: corrected)) * 1000
  }

  private static let zones = Mutex<[String: TimeZone]>([:])

  private static func timeZone(_ identifier: String) -> TimeZone? {
    if let cached = zones.withLock({ $0[identifier] }) { return cached }
    guard let zone = TimeZone(identifier: identifier) else { return nil }
    zones.withLock { $0[identifier] = zone }
    return zone
  }
}
