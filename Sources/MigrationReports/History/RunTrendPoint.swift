/// One run of an audit report's trend: the run as the history shows it, and where its report
/// is relative to the report being written.
public struct RunTrendPoint: Hashable, Sendable {
  /// The run.
  public var entry: RunHistoryEntry
  /// The run's `report.html`, relative to the folder of the report that shows the trend, when
  /// its folder still exists; `nil` otherwise (removed by retention, or never written).
  public var reportLink: String?

  /// Creates a point.
  ///
  /// - Parameters:
  ///   - entry: the run.
  ///   - reportLink: its report, relative to the report showing the trend.
  public init(entry: RunHistoryEntry, reportLink: String? = nil) {
    self.entry = entry
    self.reportLink = reportLink
  }
}
