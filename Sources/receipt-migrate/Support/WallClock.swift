import Chronology
import Foundation

/// The real clock. Only the executable reads it; every library takes time as a parameter.
enum WallClock {
  static let now: @Sendable () -> Timestamp = {
    Timestamp(millisecondsSince1970: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
  }
}
