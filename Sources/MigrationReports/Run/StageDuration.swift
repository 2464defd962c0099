/// How long one stage of a run took.
public struct StageDuration: Hashable, Sendable {
  /// The stage: `ingest`, `backfill`, `compare`, `report`.
  public var stage: String
  /// Its wall time in milliseconds.
  public var milliseconds: Int64

  /// Creates a stage duration.
  ///
  /// - Parameters:
  ///   - stage: the stage's name.
  ///   - milliseconds: its wall time in milliseconds.
  public init(stage: String, milliseconds: Int64) {
    self.stage = stage
    self.milliseconds = milliseconds
  }
}
