import LegacyReceipts

/// What the comparison says about the fields ingest set aside from an account's records: they
/// are not silently missing from the old side's verdict.
enum SetAsideFinding {
  /// The secondary finding for an account whose records had fields set aside, or `nil`.
  ///
  /// - Parameters:
  ///   - records: the account's legacy records.
  ///   - evaluated: the responses the old side was evaluated on.
  /// - Returns: the sentence.
  static func sentence(records: [AccountEvidence.LegacyRecord], evaluated: [AccountInput.Response])
    -> String?
  {
    let fields = records.flatMap(\.setAside)
    guard !fields.isEmpty else { return nil }
    let reasons = Dictionary(grouping: fields, by: \.reason).map { "\($0.value.count) \($0.key)" }
      .sorted()
    let incomplete = evaluated.reduce(0) { total, cluster in
      total
        + (cluster.response.latestReceiptInfo + (cluster.response.receipt?.inApp ?? [])).filter(
          \.isIncomplete
        ).count
    }
    var text =
      "\(fields.count) field(s) of the legacy records were set aside at ingest ("
      + reasons.joined(separator: ", ") + "); the rest was read"
    if incomplete > 0 {
      text +=
        ", and the old logic left out \(incomplete) transaction(s) it could not place without them"
    }
    return text + " (explain lists them)"
  }

  /// `; 2 id(s) in the legacy data were masked or malformed and set aside`, or nothing.
  ///
  /// - Parameter records: the account's legacy records.
  /// - Returns: the clause to append to an explanation.
  static func unusableIds(in records: [AccountEvidence.LegacyRecord]) -> String {
    let ids = records.flatMap(\.setAside).filter {
      [
        QuarantineReason.masked.rawValue, QuarantineReason.malformedTransactionId.rawValue,
        QuarantineReason.malformedOrderId.rawValue,
      ].contains($0.reason)
    }
    guard !ids.isEmpty else { return "" }
    return "; \(ids.count) id(s) in the legacy data were masked or malformed and set aside"
  }
}
