import Chronology

/// Whether one environment's change feed — Apple's notification history — can be trusted, and
/// the evidence: the test notification that proved it, and the night's check that every renewal
/// the stored data expected came with a notification.
public struct FeedHealthFacts: Hashable, Sendable {
  /// What the audit knows of the feed.
  public enum State: String, Hashable, Sendable, CaseIterable {
    /// A test notification proved it within the proof interval, and nothing tonight says
    /// otherwise.
    case healthy
    /// Nothing proves it (no recent test notification went through, the test notification
    /// never appeared in the history, or renewals came without notifications).
    case unproven
    /// Apple says no notification URL is configured (`4040007`): the history lists nothing.
    case absent
  }

  /// `Production` or `Sandbox`.
  public var environment: String
  /// The state.
  public var state: State
  /// What it rests on, one sentence each.
  public var evidence: [String]
  /// When a test notification last proved a configured URL.
  public var provenAt: Timestamp?
  /// Whether `--accept-unproven-feed` took an unproven feed as it is.
  public var isAccepted: Bool
  /// Why the refresh swept this environment tonight (its customers with data older than
  /// `--max-data-age` were asked again), or `nil` when it did not.
  public var sweep: String?
  /// How many customers the sweep made due.
  public var swept: Int

  /// Creates facts.
  public init(
    environment: String, state: State, evidence: [String], provenAt: Timestamp? = nil,
    isAccepted: Bool = false, sweep: String? = nil, swept: Int = 0
  ) {
    self.environment = environment
    self.state = state
    self.evidence = evidence
    self.provenAt = provenAt
    self.isAccepted = isAccepted
    self.sweep = sweep
    self.swept = swept
  }

  /// Whether the feed leaves the run unfinished (exit 4): it is not healthy, and not an unproven
  /// feed the team accepted.
  public var needsAttention: Bool {
    state == .absent || (state == .unproven && !isAccepted)
  }

  /// "Production: unproven — no test notification …; swept 12 customers": for people.
  public var sentence: String {
    var text = "\(environment): \(state.rawValue)"
    if isAccepted { text += " (accepted with --accept-unproven-feed)" }
    if !evidence.isEmpty { text += " — " + evidence.joined(separator: "; ") }
    if let sweep {
      text +=
        "; swept: \(ReportFormatting.count(swept)) customer(s) whose data is older than "
        + "--max-data-age were asked again (\(sweep))"
    }
    return text
  }
}
