import Chronology
import LegacyReceipts
import MigrationStore

/// What one `ingest` run read, and what the store holds afterwards.
public struct IngestSummary: Sendable {
  /// Records read in this run (accepted + partial + quarantined).
  public var recordsRead = 0
  /// Records accepted whole in this run.
  public var accepted = 0
  /// Records accepted as partial in this run: some fields set aside, the rest kept.
  public var partial = 0
  /// Set-aside fields by reason, in this run.
  public var setAsideByReason: [QuarantineReason: Int] = [:]
  /// The first set-aside fields of this run, with the record each belongs to, for display.
  public var setAsideSamples: [(position: RecordPosition, field: SetAsideField)] = []
  /// Accepted records (whole or partial) that were new (or a new version for their account).
  public var newRecords = 0
  /// Accepted records the store already held byte for byte.
  public var alreadyStored = 0
  /// Inputs quarantined in this run.
  public var quarantined = 0
  /// Quarantined inputs by reason, in this run.
  public var quarantinedByReason: [QuarantineReason: Int] = [:]
  /// The first quarantined inputs of this run, for display.
  public var quarantineSamples: [QuarantinedRecord] = []
  /// Files not read (not an input format), with the reason.
  public var skippedFiles: [(path: String, reason: String)] = []
  /// Accepted records (whole or partial) in this run by kind: `response`, `raw_receipt`, `seed`.
  public var acceptedByKind: [String: Int] = [:]
  /// Bytes of input read.
  public var bytesRead: Int64 = 0
  /// Wall time of the run, in milliseconds.
  public var durationMilliseconds: Int64 = 0
  /// The extra evaluation instant, if one was given.
  public var asOf: Timestamp?
  /// Old-logic verdicts at `asOf`, by status label, for each account's latest usable response.
  public var oldEntitlementsAsOfByStatus: [String: Int] = [:]
  /// What the store holds afterwards.
  public var totals = LegacyStoreTotals()

  /// Creates an empty summary.
  public init() {}

  /// Whether every record read was accepted whole.
  public var isClean: Bool { quarantined == 0 && partial == 0 }
}
