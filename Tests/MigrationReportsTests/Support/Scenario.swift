import Entitlements
import MigrationReports
import Testing

/// The runs the golden files are made from.
enum Scenario: String, CaseIterable, CustomTestStringConvertible {
  /// The sample world against the simulator, with a team table and a crossed threshold.
  case simulated
  /// The same world against Apple, pseudonymised.
  case redacted
  /// No accounts at all.
  case empty
  /// The sample world's nightly audit: what changed since the night before, a refresh, lost
  /// notifications and a crossed `new:table:` threshold.
  case audit

  var summary: RunSummary {
    switch self {
    case .simulated: return SampleWorld.simulatedSummary
    case .redacted: return SampleWorld.productionSummary
    case .empty: return SampleWorld.emptySummary
    case .audit: return SampleWorld.auditSummary
    }
  }

  var comparisons: [AccountComparison] { self == .empty ? [] : SampleWorld.comparisons }

  var options: ReportOptions {
    self == .redacted
      ? ReportOptions(pseudonymizer: try! Pseudonymizer(salt: SampleWorld.salt)) : ReportOptions()
  }

  /// What the run reports besides its comparisons.
  var context: RunContext { self == .audit ? SampleWorld.auditContext : RunContext() }

  func render() -> [ReportFile] {
    ReportWriter.render(
      summary: summary, comparisons: comparisons, context: context, options: options)
  }

  var testDescription: String { rawValue }
}
