/// What the store knows of one environment's change feed: the latest test notification and the
/// latest check that the renewals its data expected came with notifications.
public struct FeedHealthRow: Hashable, Sendable {
  /// What Apple did with the latest test notification.
  public enum TestResult: String, Hashable, Sendable {
    /// Requested; Apple has not attempted to send it yet.
    case pending
    /// Sent, and the team's server answered.
    case delivered
    /// Sent to a configured URL, and the team's server did not answer (the detail says how).
    case failed
    /// Apple answered `4040007`: no notification URL is configured for the environment.
    case absent
    /// The request failed for another reason (the detail says which).
    case error
  }

  /// `Production` or `Sandbox`.
  public var environment: String
  /// When the latest test notification was requested (App Store clock, Unix ms).
  public var testRequestedMilliseconds: Int64?
  /// Its `testNotificationToken`.
  public var testToken: String?
  /// Its `notificationUUID`, once Apple's status answer carried the payload.
  public var testUUID: String?
  /// What became of it.
  public var testResult: TestResult?
  /// The last attempt's result, or the error, for people.
  public var testDetail: String?
  /// When the test notification appeared in the notification history (its `signedDate`).
  public var testSeenMilliseconds: Int64?
  /// When the history was searched for the test notification and did not list it.
  public var testLookedMilliseconds: Int64?
  /// When a test notification last proved a configured URL (App Store clock, Unix ms): Apple
  /// sent it, whatever the team's server answered.
  public var provenMilliseconds: Int64?
  /// The latest renewal check: when it ran, the span it covered, how many renewals the stored
  /// data expected in it, and how many of those customers no notification named.
  public var check: Check?
  /// When a renewal check last found renewals without notifications (App Store clock, Unix ms).
  public var checkFailedMilliseconds: Int64?
  /// What that check found, for people.
  public var checkFailedDetail: String?

  /// A renewal check of one night.
  public struct Check: Hashable, Sendable {
    /// When it ran (App Store clock, Unix ms).
    public var checkedMilliseconds: Int64
    /// The span's start (Unix ms).
    public var startMilliseconds: Int64
    /// The span's end (Unix ms).
    public var endMilliseconds: Int64
    /// Renewals the stored data expected in the span.
    public var expected: Int
    /// Of those, the customers no notification named since their data was fetched.
    public var missing: Int

    /// Creates a check.
    public init(
      checkedMilliseconds: Int64, startMilliseconds: Int64, endMilliseconds: Int64,
      expected: Int, missing: Int
    ) {
      self.checkedMilliseconds = checkedMilliseconds
      self.startMilliseconds = startMilliseconds
      self.endMilliseconds = endMilliseconds
      self.expected = expected
      self.missing = missing
    }
  }

  /// A row with nothing known yet.
  public init(environment: String) {
    self.environment = environment
  }
}
