import Chronology
import LegacyReceipts
import MigrationReports

/// What a migration run reads, compares and writes.
public struct MigrationRunOptions: Sendable {
  /// The legacy inputs.
  public var legacyPaths: [String]
  /// How they are read.
  public var reader: LegacyInputReader.Options
  /// The product catalogue file, if any.
  public var catalogPath: String?
  /// The team's current entitlement table, if one is compared.
  public var currentEntitlementsPath: String?
  /// Where run folders are written.
  public var reportsDirectory: String
  /// The comparison instant, or `nil` for the App Store's clock when the comparison begins
  /// (the simulator's clock, or now for Apple), so that the data just refreshed is read as of an
  /// instant it speaks for.
  public var asOf: Timestamp?
  /// How the backfill runs.
  public var backfill: BackfillOptions
  /// How the refresh runs (budget, overlap).
  public var refresh: RefreshOptions
  /// The run to compare with ("what changed since"), or `nil` for the previous finished run.
  public var since: String?
  /// When the run fails (exit 1).
  public var failOn: FailOnPolicy?
  /// The salt that pseudonymises account ids in reports, or `nil` for none.
  public var redactionSalt: String?
  /// The run's id, or `nil` (the default) for one made from the start instant and a random
  /// suffix; tests fix it to compare reports byte for byte.
  public var runId: String?
  /// The team's `appAccountToken` mapping, when the run audits tokens.
  public var tokens: AccountTokenSource?
  /// The command that makes the run (`migrate`, `audit`, `compare`), for the run ledger.
  public var command: String?
  /// The command line, secrets scrubbed (``CommandLineScrubber``), for the run ledger.
  public var commandLine: [String] = []
  /// The inputs and settings the run uses, each with where it came from.
  public var usedInputs: [UsedInput] = []

  /// Creates options.
  public init(
    legacyPaths: [String], reader: LegacyInputReader.Options = .init(), catalogPath: String? = nil,
    currentEntitlementsPath: String? = nil, reportsDirectory: String, asOf: Timestamp?,
    backfill: BackfillOptions = BackfillOptions(), refresh: RefreshOptions? = nil,
    since: String? = nil, failOn: FailOnPolicy? = nil, redactionSalt: String? = nil,
    runId: String? = nil, tokens: AccountTokenSource? = nil
  ) {
    self.legacyPaths = legacyPaths
    self.reader = reader
    self.catalogPath = catalogPath
    self.currentEntitlementsPath = currentEntitlementsPath
    self.reportsDirectory = reportsDirectory
    self.asOf = asOf
    self.backfill = backfill
    self.refresh =
      refresh
      ?? RefreshOptions(concurrency: backfill.concurrency, environment: backfill.environment)
    self.since = since
    self.failOn = failOn
    self.redactionSalt = redactionSalt
    self.runId = runId
    self.tokens = tokens
  }

  /// The report options these options stand for.
  ///
  /// - Throws: `ReportError` when the redaction salt cannot be used.
  public func reportOptions() throws -> ReportOptions {
    var report = ReportOptions()
    if let redactionSalt {
      report.pseudonymizer = try Pseudonymizer(salt: Array(redactionSalt.utf8))
    }
    return report
  }
}
