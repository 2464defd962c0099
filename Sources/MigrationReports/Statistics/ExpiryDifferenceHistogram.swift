import Chronology

/// How far the new logic's expiry lies from the old logic's, for keys where both sides have
/// one, counted in seven buckets of days (new minus old: negative means the App Store ends
/// access earlier).
struct ExpiryDifferenceHistogram: Hashable, Sendable {
  /// A range of differences. Boundaries are exact milliseconds, with D = one day of 24 hours:
  /// `d ≤ −30D`, `−30D < d ≤ −7D`, `−7D < d < −1D`, `−1D ≤ d ≤ 1D`, `1D < d < 7D`,
  /// `7D ≤ d < 30D`, `d ≥ 30D`; symmetric around zero.
  enum Bucket: Int, CaseIterable, Hashable, Sendable {
    case atMostMinus30
    case minus30ToMinus7
    case minus7ToMinus1
    case withinOneDay
    case plus1ToPlus7
    case plus7ToPlus30
    case atLeastPlus30

    /// The bucket of a difference in milliseconds.
    init(differenceMilliseconds d: Int64) {
      let day = Timestamp.millisecondsPerDay
      switch d {
      case ...(-30 * day): self = .atMostMinus30
      case ...(-7 * day): self = .minus30ToMinus7
      case ..<(-day): self = .minus7ToMinus1
      case ...day: self = .withinOneDay
      case ..<(7 * day): self = .plus1ToPlus7
      case ..<(30 * day): self = .plus7ToPlus30
      default: self = .atLeastPlus30
      }
    }

    /// A short label for charts, in days: `≤ −30`.
    var label: String {
      switch self {
      case .atMostMinus30: return "≤ −30"
      case .minus30ToMinus7: return "−30 to −7"
      case .minus7ToMinus1: return "−7 to −1"
      case .withinOneDay: return "±1"
      case .plus1ToPlus7: return "+1 to +7"
      case .plus7ToPlus30: return "+7 to +30"
      case .atLeastPlus30: return "≥ +30"
      }
    }

    /// The stable identifier `run.json` uses.
    var identifier: String {
      switch self {
      case .atMostMinus30: return "at_most_minus_30_days"
      case .minus30ToMinus7: return "minus_30_to_minus_7_days"
      case .minus7ToMinus1: return "minus_7_to_minus_1_days"
      case .withinOneDay: return "within_1_day"
      case .plus1ToPlus7: return "plus_1_to_plus_7_days"
      case .plus7ToPlus30: return "plus_7_to_plus_30_days"
      case .atLeastPlus30: return "at_least_plus_30_days"
      }
    }

    /// A sentence for the chart's accessible titles.
    var meaning: String {
      switch self {
      case .atMostMinus30: return "the App Store's expiry is 30 days or more earlier"
      case .minus30ToMinus7: return "the App Store's expiry is 7 to 30 days earlier"
      case .minus7ToMinus1: return "the App Store's expiry is 1 to 7 days earlier"
      case .withinOneDay: return "the expiries are within a day of each other"
      case .plus1ToPlus7: return "the App Store's expiry is 1 to 7 days later"
      case .plus7ToPlus30: return "the App Store's expiry is 7 to 30 days later"
      case .atLeastPlus30: return "the App Store's expiry is 30 days or more later"
      }
    }
  }

  private(set) var counts: [Int] = Array(repeating: 0, count: Bucket.allCases.count)

  /// Counts one key's pair of expiries.
  mutating func add(old: Timestamp, new: Timestamp) {
    counts[Bucket(differenceMilliseconds: new.milliseconds(since: old)).rawValue] += 1
  }

  /// The keys in a bucket.
  func count(_ bucket: Bucket) -> Int { counts[bucket.rawValue] }

  /// Every key counted.
  var total: Int { counts.reduce(0, +) }
}
