/// What a run's report shows besides its comparisons: the accounts whose category changed since
/// the run it was compared with, the notifications Apple never delivered that it reports, and
/// for an audit the runs before it.
public struct RunContext: Hashable, Sendable {
  /// The accounts whose primary or table category changed, by account id.
  public var changes: [AccountChange]
  /// The lost notifications, in time order.
  public var lostNotifications: [LostNotification]
  /// The failed deliveries Apple may still retry when the run ended, in time order (listed
  /// apart from the lost ones; a report regenerated later lists none, only their count).
  public var pendingNotifications: [LostNotification]
  /// The accounts only in the team table, not compared, by id.
  public var tableOnlyAccounts: [String] = []
  /// The App Store customers no account claims.
  public var unclaimedCustomers: [UnclaimedCustomer] = []
  /// An audit's trend: the store's complete runs before this one, oldest first, then this run;
  /// empty when not an audit or not known (a report renders no trend then).
  public var trend: [RunTrendPoint] = []

  /// Creates a context.
  public init(
    changes: [AccountChange] = [], lostNotifications: [LostNotification] = [],
    pendingNotifications: [LostNotification] = []
  ) {
    self.changes = changes
    self.lostNotifications = lostNotifications
    self.pendingNotifications = pendingNotifications
  }
}
