/// A migration run as stored.
public struct RunRow: Hashable, Sendable {
  /// The run id, such as `20251101T000000Z-3f9a`.
  public var id: String
  /// When it started (Unix ms).
  public var startedMilliseconds: Int64
  /// When it finished (Unix ms), if it did.
  public var finishedMilliseconds: Int64?
  /// The comparison instant (Unix ms).
  public var asOfMilliseconds: Int64
  /// Whether the App Store was the simulator.
  public var isSimulated: Bool
  /// The run's inputs and options (JSON).
  public var inputs: String
  /// The run's summary (JSON), once finished.
  public var summary: String?

  /// Creates a row.
  public init(
    id: String, startedMilliseconds: Int64, finishedMilliseconds: Int64?, asOfMilliseconds: Int64,
    isSimulated: Bool,
    inputs: String, summary: String?
  ) {
    self.id = id
    self.startedMilliseconds = startedMilliseconds
    self.finishedMilliseconds = finishedMilliseconds
    self.asOfMilliseconds = asOfMilliseconds
    self.isSimulated = isSimulated
    self.inputs = inputs
    self.summary = summary
  }
}
