import Chronology
import Entitlements
import Terminal

/// The spelling of numbers, shares, instants and durations shared by every report file, so
/// that the HTML, the Markdown and the terminal say the same thing the same way.
enum ReportFormatting {
  /// `12,345`.
  static func count(_ value: Int) -> String { NumberFormatting.grouped(value) }

  /// `1 account`, `12,345 accounts`.
  static func accounts(_ value: Int) -> String {
    value == 1 ? "1 account" : "\(count(value)) accounts"
  }

  /// `12.0%` of `total`; `0.0%` when the total is zero.
  static func share(_ part: Int, of total: Int) -> String {
    guard total > 0 else { return "0.0%" }
    return NumberFormatting.percent(Double(part) / Double(total), fractionDigits: 1)
  }

  /// `342 read, 340 accepted, 1 partial, 1 quarantined`: a run's legacy records.
  static func records(_ inputs: RunInputs) -> String {
    "\(count(inputs.recordsRead)) read, \(count(inputs.recordsAccepted)) accepted, "
      + "\(count(inputs.recordsPartial)) partial, \(count(inputs.recordsQuarantined)) quarantined"
  }

  /// `ingest 0.19 s, backfill 7.31 s`: stage durations, each name passed through `escape`.
  static func stages(_ durations: [StageDuration], escape: (String) -> String) -> String {
    durations.map { "\(escape($0.stage)) \(duration(milliseconds: $0.milliseconds))" }
      .joined(separator: ", ")
  }

  /// `2024-06-15T12:00:00Z`, or `-` when absent.
  static func instant(_ timestamp: Timestamp?) -> String { timestamp?.iso8601 ?? "-" }

  /// `0.25 s`, `12.3 s`, `4 min 05 s`, `1 h 02 min`.
  static func duration(milliseconds: Int64) -> String {
    let milliseconds = max(0, milliseconds)
    if milliseconds < 10_000 {
      return NumberFormatting.decimal(Double(milliseconds) / 1000, fractionDigits: 2) + " s"
    }
    if milliseconds < 60_000 {
      return NumberFormatting.decimal(Double(milliseconds) / 1000, fractionDigits: 1) + " s"
    }
    let seconds = milliseconds / 1000
    if seconds < 3600 {
      return "\(seconds / 60) min \(twoDigits(seconds % 60)) s"
    }
    return "\(seconds / 3600) h \(twoDigits(seconds / 60 % 60)) min"
  }

  /// What switching does to a customer, for a sentence: `loses access`.
  static func impact(_ impact: DiscrepancyCategory.Impact) -> String {
    switch impact {
    case .losesAccess: return "loses access"
    case .gainsAccess: return "gains access"
    case .changesTerms: return "changes terms"
    case .needsAttention: return "needs attention"
    case .none: return "no change"
    }
  }

  /// A headline's label for a number of accounts: `lose access`.
  static func headline(_ impact: DiscrepancyCategory.Impact) -> String {
    switch impact {
    case .losesAccess: return "lose access"
    case .gainsAccess: return "gain access"
    case .changesTerms: return "change terms"
    case .needsAttention: return "need attention"
    case .none: return "match"
    }
  }

  /// What a cause means, in a sentence.
  static func meaning(_ cause: DifferenceCause) -> String {
    switch cause {
    case .logic:
      return
        "the two logics read the same moment differently: they disagree at the capture instant too"
    case .freshness:
      return "the App Store's data changed after the snapshot: the two agree at the capture instant"
    case .undetermined: return "no capture instant is known, so the cause cannot be told"
    case .catalogue:
      return "the catalogue gives no duration for a non-renewing subscription: nothing changed, "
        + "and neither logic erred"
    }
  }

  /// The CSS class suffix of an impact's colour.
  static func tone(_ impact: DiscrepancyCategory.Impact) -> String {
    switch impact {
    case .losesAccess: return "lose"
    case .gainsAccess: return "gain"
    case .changesTerms: return "term"
    case .needsAttention: return "attn"
    case .none: return "same"
    }
  }

  private static func twoDigits(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
