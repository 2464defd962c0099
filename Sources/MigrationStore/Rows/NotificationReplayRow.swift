/// One attempt to send a lost notification to the team's server: what `notifications replay`
/// journals before and after each request.
public struct NotificationReplayRow: Hashable, Sendable {
  /// Where an attempt stands.
  public enum State: String, Sendable, Hashable, CaseIterable {
    /// Journaled just before the request left; still so after a crash, it is in doubt.
    case sent
    /// The server answered 2xx.
    case accepted
    /// The server answered another status, or did not answer.
    case failed
  }

  /// The attempt's id in the journal.
  public var id: Int64
  /// The notification (`notificationUUID`).
  public var uuid: String
  /// The endpoint it was sent to.
  public var destination: String
  /// Where the attempt stands.
  public var state: State
  /// When it was sent (Unix ms).
  public var sentMilliseconds: Int64
  /// When the answer (or the failure) was recorded (Unix ms).
  public var answeredMilliseconds: Int64?
  /// The answer's status, when there was one.
  public var httpStatus: Int?
  /// Why there was no answer, or the start of a refusal's body.
  public var error: String?

  /// Creates a row.
  public init(
    id: Int64, uuid: String, destination: String, state: State, sentMilliseconds: Int64,
    answeredMilliseconds: Int64? = nil, httpStatus: Int? = nil, error: String? = nil
  ) {
    self.id = id
    self.uuid = uuid
    self.destination = destination
    self.state = state
    self.sentMilliseconds = sentMilliseconds
    self.answeredMilliseconds = answeredMilliseconds
    self.httpStatus = httpStatus
    self.error = error
  }
}
