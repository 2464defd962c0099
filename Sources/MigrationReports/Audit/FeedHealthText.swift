/// The lines that say whether the run's change feeds can be trusted and how old its App Store
/// data is: the same words in the terminal, `summary.md` and `report.html`.
enum FeedHealthText {
  /// "Change feed Production: healthy — …", one line per environment the refresh read.
  ///
  /// - Parameter summary: the run's facts.
  /// - Returns: the lines, without final periods; empty when the run did not refresh.
  static func lines(_ summary: RunSummary) -> [String] {
    (summary.refresh?.feeds ?? []).map { "Change feed \($0.sentence)" }
  }

  /// "App Store data age: oldest …", or `nil` when the run did not record it.
  ///
  /// - Parameter summary: the run's facts.
  /// - Returns: the line, without a final period.
  static func dataAge(_ summary: RunSummary) -> String? {
    summary.dataAge.map { "App Store data age: " + $0.sentence(asOf: summary.asOf) }
  }

  /// "Legacy responses captured after the comparison instant: 12 set aside (9 accounts)", or
  /// `nil` when none was.
  ///
  /// - Parameter summary: the run's facts.
  /// - Returns: the line, without a final period.
  static func setAside(_ summary: RunSummary) -> String? {
    guard summary.responsesSetAside > 0 else { return nil }
    return "Legacy responses captured after \(summary.asOf.iso8601): "
      + "\(ReportFormatting.count(summary.responsesSetAside)) set aside on "
      + "\(ReportFormatting.accounts(summary.accountsWithResponsesSetAside)) (the old side reads "
      + "only what the team held then)"
  }
}
