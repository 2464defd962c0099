/// A comparison run as the store's run ledger keeps it.
public struct RunRow: Hashable, Sendable {
  /// The run id, such as `20251101T000000Z-3f9a`.
  public var id: String
  /// When it started (Unix ms).
  public var startedMilliseconds: Int64
  /// When its comparisons were recorded (Unix ms), if they were.
  public var finishedMilliseconds: Int64?
  /// The comparison instant (Unix ms).
  public var asOfMilliseconds: Int64
  /// Whether the App Store was the simulator.
  public var isSimulated: Bool
  /// The run's inputs and options (JSON).
  public var inputs: String
  /// The run's summary (JSON), once finished.
  public var summary: String?
  /// The command that recorded the run (`migrate`, `audit`, `compare`), or `nil` for a run
  /// recorded before the store kept it.
  public var command: String?
  /// The command line, as a JSON array of arguments with secrets scrubbed, if known.
  public var commandLine: String?
  /// What the run's classifications depend on (see ``RunLedger``), if known.
  public var recipeKey: String?
  /// When the run's report was committed (Unix ms), if it was.
  public var reportedMilliseconds: Int64?
  /// The folder the report was committed to, if it was.
  public var reportDirectory: String?
  /// When the command that made the run ended (Unix ms), after its output and alerts.
  public var endedMilliseconds: Int64?
  /// The exit code the command ended with, once it ended.
  public var exitCode: Int?

  /// Creates a row.
  public init(
    id: String, startedMilliseconds: Int64, finishedMilliseconds: Int64?, asOfMilliseconds: Int64,
    isSimulated: Bool, inputs: String, summary: String?, command: String? = nil,
    commandLine: String? = nil, recipeKey: String? = nil, reportedMilliseconds: Int64? = nil,
    reportDirectory: String? = nil, endedMilliseconds: Int64? = nil, exitCode: Int? = nil
  ) {
    self.id = id
    self.startedMilliseconds = startedMilliseconds
    self.finishedMilliseconds = finishedMilliseconds
    self.asOfMilliseconds = asOfMilliseconds
    self.isSimulated = isSimulated
    self.inputs = inputs
    self.summary = summary
    self.command = command
    self.commandLine = commandLine
    self.recipeKey = recipeKey
    self.reportedMilliseconds = reportedMilliseconds
    self.reportDirectory = reportDirectory
    self.endedMilliseconds = endedMilliseconds
    self.exitCode = exitCode
  }

  /// Whether the run's report was committed.
  public var isReported: Bool { reportedMilliseconds != nil }

  /// Whether the run is complete: its report committed and its command ended (its headline
  /// printed, its alerts handed over). Only a complete run is a baseline for "since", and only
  /// the lost notifications it lists count as handed over.
  public var isComplete: Bool { reportedMilliseconds != nil && endedMilliseconds != nil }
}
