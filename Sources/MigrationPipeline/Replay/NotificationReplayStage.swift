import Chronology
import MigrationReports
import MigrationStore

/// Sends the notifications Apple never delivered to the team's endpoint, in the order they were
/// signed, at a bounded pace, journaling every attempt in the store so that a rerun sends only
/// what the endpoint has not accepted — and nothing twice.
///
/// Each attempt is journaled `sent` (committed) before its request leaves, and `accepted` or
/// `failed` with the answer after. A notification the destination accepted is never sent there
/// again; one that failed is sent again by the next replay; one whose latest attempt has no
/// answer — the process was killed mid-request, or the answer never came — is *in doubt* (it may
/// have arrived) and is held back unless ``ReplayOptions/resendInDoubt`` is set. A stop request
/// ends the replay between two notifications, never during one.
public struct NotificationReplayStage {
  /// The stage's name in progress lines.
  public static let name = "replay"

  private let store: MigrationStore
  private let destination: ReplayDestination
  private let options: ReplayOptions
  private let now: @Sendable () -> Timestamp
  private let sleep: @Sendable (Int64) async throws -> Void
  private let observer: (any ProgressObserver)?

  /// Creates the stage.
  ///
  /// - Parameters:
  ///   - store: the store holding the lost notifications and the journal.
  ///   - destination: the endpoint.
  ///   - options: what to send, and how fast.
  ///   - now: the wall clock, which dates the journal and paces the requests.
  ///   - sleep: waits a number of milliseconds.
  ///   - observer: where progress goes.
  public init(
    store: MigrationStore, destination: ReplayDestination, options: ReplayOptions,
    now: @escaping @Sendable () -> Timestamp,
    sleep: @escaping @Sendable (Int64) async throws -> Void,
    observer: (any ProgressObserver)? = nil
  ) {
    self.store = store
    self.destination = destination
    self.options = options
    self.now = now
    self.sleep = sleep
    self.observer = observer
  }

  /// The selected notifications and where each stands at the destination.
  ///
  /// - Returns: the plan; nothing is sent.
  /// - Throws: ``ReplayFailure`` for a `--run` the store does not hold; `SQLiteError`.
  public func plan() throws -> ReplayPlan {
    let listings: [LostNotificationListing]
    switch options.selection {
    case .all:
      listings = try store.lostNotifications(signedFrom: nil)
    case .since(let instant):
      listings = try store.lostNotifications(signedFrom: instant.millisecondsSince1970)
    case .run(let runId):
      guard try store.runLedger.run(runId) != nil else {
        throw ReplayFailure("--run \(runId): the database \(store.path) has no run with that id")
      }
      listings = try store.lostNotifications(reportedBy: runId)
    }
    let latest = try store.latestReplays(to: destination.description)
    let entries = listings.map { listing -> ReplayPlan.Entry in
      let notification = LostNotificationListings.notification(listing)
      let standing: ReplayPlan.Standing
      switch latest[notification.uuid] {
      case nil: standing = .new
      case let attempt? where attempt.state == .accepted: standing = .accepted(attempt)
      case let attempt? where attempt.state == .failed: standing = .failedBefore(attempt)
      case let attempt?:
        standing = options.resendInDoubt ? .resentInDoubt(attempt) : .inDoubt(attempt)
      }
      return ReplayPlan.Entry(notification: notification, standing: standing)
    }
    return ReplayPlan(destination: destination, entries: entries)
  }

  /// Sends the plan's notifications, one at a time, in order.
  ///
  /// - Parameters:
  ///   - plan: what to send, from ``plan()``.
  ///   - poster: the HTTP client for the destination.
  /// - Returns: what the destination answered to each notification sent.
  /// - Throws: `CancellationError` when a stop was asked for (the notifications sent so far
  ///   are journaled); `SQLiteError`.
  public func run(_ plan: ReplayPlan, poster: NotificationPoster) async throws -> ReplaySummary {
    let toSend = plan.toSend
    observer?.stageStarted(Self.name, unit: "notifications", total: Int64(toSend.count))
    defer { observer?.stageFinished(Self.name) }
    var summary = ReplaySummary(plan: plan, sent: [])
    // The pace: the n-th request leaves no earlier than n intervals after the first.
    let interval = Int64((1000 / max(options.ratePerSecond, 0.001)).rounded(.up))
    let began = now().millisecondsSince1970
    for (index, entry) in toSend.enumerated() {
      try await pause(until: began + Int64(index) * interval)
      try StopRequest.checkpoint()
      let notification = entry.notification
      let attempt = try store.beginReplay(
        uuid: notification.uuid, destination: destination.description,
        sentAt: now().millisecondsSince1970)
      let outcome = await poster.post(signedPayload: notification.signedPayload)
      let result = try record(outcome, of: attempt)
      summary.sent.append((notification, result))
      observer?.advanced(Self.name, by: 1)
      switch result {
      case .accepted: observer?.counted(Self.name, "accepted", by: 1)
      case .refused, .notDelivered: observer?.counted(Self.name, "failed", by: 1)
      case .inDoubt: observer?.counted(Self.name, "in doubt", by: 1)
      }
    }
    return summary
  }

  /// Journals what became of an attempt and says it as a result.
  private func record(_ outcome: NotificationPoster.Outcome, of attempt: Int64) throws
    -> ReplaySummary.Result
  {
    let answered = now().millisecondsSince1970
    switch outcome {
    case .answered(let status, _) where (200..<300).contains(status):
      try store.finishReplay(
        id: attempt, state: .accepted, answeredAt: answered, httpStatus: status, error: nil)
      return .accepted(status: status)
    case .answered(let status, let excerpt):
      try store.finishReplay(
        id: attempt, state: .failed, answeredAt: answered, httpStatus: status,
        error: excerpt.isEmpty ? nil : excerpt)
      return .refused(status: status, excerpt: excerpt)
    case .notDelivered(let reason):
      try store.finishReplay(
        id: attempt, state: .failed, answeredAt: answered, httpStatus: nil, error: reason)
      return .notDelivered(reason)
    case .inDoubt(let reason):
      // Still `sent`: the request may have arrived. The reason is kept for a person.
      try store.finishReplay(
        id: attempt, state: .sent, answeredAt: answered, httpStatus: nil, error: reason)
      return .inDoubt(reason)
    }
  }

  /// Waits until an instant of the wall clock, looking at the stop request at least twice a
  /// second so that a slow pace never delays a stop.
  private func pause(until instant: Int64) async throws {
    while true {
      let remaining = instant - now().millisecondsSince1970
      guard remaining > 0 else { return }
      try StopRequest.checkpoint()
      try await sleep(min(remaining, 500))
    }
  }
}
