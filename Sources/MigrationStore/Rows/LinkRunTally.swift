/// A link run with how many of its writes stand in each state: a line of `link --list`.
public struct LinkRunTally: Hashable, Sendable {
  /// The run.
  public var run: LinkRunRow
  /// Writes by state; states without writes are absent.
  public var states: [LinkWriteRow.State: Int]
  /// Skipped writes by reason.
  public var skipped: [String: Int]

  /// Creates a tally.
  public init(
    run: LinkRunRow, states: [LinkWriteRow.State: Int], skipped: [String: Int]
  ) {
    self.run = run
    self.states = states
    self.skipped = skipped
  }

  /// Every write of the run.
  public var writes: Int { states.values.reduce(0, +) }
}
