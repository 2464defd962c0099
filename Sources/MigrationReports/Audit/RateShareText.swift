/// The sentence that says how hard a run pushed the App Store Server API: the share of Apple's
/// per-app limits it was capped at, and per endpoint the cap and the busiest second measured.
enum RateShareText {
  /// "Capped at 50 % of Apple's per-app rate limits: transaction_history 25/s (busiest second
  /// 25), …", or `nil` when the run recorded no cap.
  ///
  /// - Parameter summary: the run's facts.
  /// - Returns: the sentence, without a final period.
  static func sentence(_ summary: RunSummary) -> String? {
    guard let share = summary.rateShare else { return nil }
    let endpoints = summary.requests.compactMap(\.rateText)
    return "capped at \(ReportFormatting.percent(share)) of Apple's per-app rate limits"
      + (endpoints.isEmpty ? "" : ": " + endpoints.joined(separator: ", "))
  }
}
