import AppStoreServerAPI
import Chronology
import Entitlements
import MigrationStore

/// Carries a journaled `link` run out: asks the App Store again about each customer, then sends
/// Set App Account Token where the purchase still carries what the plan saw, journaling every
/// write so that a killed run resumes without repeating one.
///
/// Per customer, with up to `concurrency` customers at once: one history call with the stored
/// revision (``LinkReread``) says what each purchase carries at Apple now. An apply write is
/// then sent only when the purchase still carries the token the plan saw — a purchase that
/// carries the new token already, or another one set since the last fetch, is skipped with
/// the reason and never overwritten; an undo write only when the purchase still carries the
/// token its apply wrote. Each write is marked `sent` (committed) before its request leaves,
/// and `confirmed` or `failed` with the answer after. A write found `sent` on a resume is in
/// doubt: it is confirmed without sending when Apple holds its token already (by the reread,
/// or by asking the purchase itself), and sent again otherwise — at most once more.
///
/// Pacing and retries are the client's: Apple's 20 writes per second (2 in sandbox), 429
/// answered by waiting until `Retry-After`, "try again" codes retried with back-off, and codes
/// such as 4000183, 4000185, 4000187 and 4000227 never retried.
public actor LinkStage {
  /// The stage's name in progress reports: `link` for an apply, `undo` for an undo.
  ///
  /// - Parameter kind: the run's kind.
  /// - Returns: the name.
  public static func name(of kind: LinkRunRow.Kind) -> String {
    kind == .undo ? "undo" : "link"
  }

  /// The name progress is reported under while a run is carried out.
  private var stage = "link"

  private let store: MigrationStore
  private let client: AppStoreServerAPIClient
  private let concurrency: Int
  private let now: @Sendable () -> Timestamp
  private let observer: (any ProgressObserver)?
  private var outcome = LinkOutcome()

  /// Creates the stage; it takes the store connection over.
  ///
  /// - Parameters:
  ///   - store: the store holding the journal (not used by anyone else while the stage runs).
  ///   - client: the App Store.
  ///   - concurrency: the most customers in flight at once (the rate limits pace them).
  ///   - now: the clock that dates the journal.
  ///   - observer: where progress goes.
  public init(
    store: sending MigrationStore, client: AppStoreServerAPIClient, concurrency: Int = 8,
    now: @escaping @Sendable () -> Timestamp, observer: (any ProgressObserver)? = nil
  ) {
    self.store = store
    self.client = client
    self.concurrency = max(1, concurrency)
    self.now = now
    self.observer = observer
  }

  // MARK: - Carrying a run out

  /// Decides and sends every write of the run that has no answer yet, customer by customer,
  /// and closes the run when each has one.
  ///
  /// - Parameter run: the run.
  /// - Returns: what this process did.
  /// - Throws: `CancellationError` when a stop was requested (what was answered is journaled),
  ///   `SQLiteError`.
  public func carryOut(_ run: LinkRunRow) async throws -> LinkOutcome {
    outcome = LinkOutcome()
    stage = Self.name(of: run.kind)
    let pending = try store.linkJournal.writes(runId: run.id).filter(\.state.isPending)
    var groups: [[LinkWriteRow]] = []
    var positions: [Int64: Int] = [:]
    for write in pending {
      // A write without a stored customer cannot be asked about; it is decided alone.
      guard let customer = write.customerId else {
        groups.append([write])
        continue
      }
      if let position = positions[customer] {
        groups[position].append(write)
      } else {
        positions[customer] = groups.count
        groups.append([write])
      }
    }
    observer?.stageStarted(stage, unit: "writes", total: Int64(pending.count))
    defer { observer?.stageFinished(stage) }
    var remaining = groups[...]
    try await withThrowingTaskGroup(of: Void.self) { group in
      var inFlight = 0
      // A stop ends the loop rather than throwing out of the group, which would cancel the
      // customers in flight and abandon their requests: each finishes the request it has in
      // flight, journals it, and stops before the next.
      while !Self.stopRequested, let writes = remaining.popFirst() {
        if inFlight >= concurrency {
          try await group.next()
          inFlight -= 1
        }
        group.addTask { try await self.carryOut(writes, of: run) }
        inFlight += 1
      }
      try await group.waitForAll()
    }
    try StopRequest.checkpoint()
    try store.linkJournal.finish(run.id, finishedMilliseconds: now().millisecondsSince1970)
    return outcome
  }

  /// One customer's writes: ask again, then decide and send each.
  private func carryOut(_ writes: [LinkWriteRow], of run: LinkRunRow) async throws {
    guard let first = writes.first else { return }
    let reread: LinkReread
    do {
      reread = try await self.reread(first)
    } catch let failure as RereadFailure {
      for write in writes {
        try record(write, of: run, .failed(failure.description))
      }
      return
    }
    for write in writes {
      let result: Result
      if Self.stopRequested { return }
      switch await decide(write, of: run, reread: reread) {
      case .send:
        try store.linkJournal.markSent(
          runId: run.id, originalTransactionId: write.originalTransactionId,
          attemptedMilliseconds: now().millisecondsSince1970)
        result = try await Self.send(write, client: client)
      case .settled(let settled):
        result = settled
      }
      try record(write, of: run, result)
      switch result {
      case .confirmed, .found:
        if run.kind == .undo {
          outcome.transactionsKeepingToken +=
            reread.transactionsKeepingToken(
              of: write.originalTransactionId, since: write.latestTransactionId) ?? 0
        }
      case .failed, .skipped:
        break
      }
    }
  }

  // MARK: - Deciding

  /// What to do with one write.
  enum Decision: Sendable {
    /// Send it.
    case send
    /// Record this without sending.
    case settled(Result)
  }

  /// How a write ends.
  enum Result: Sendable {
    /// Apple accepted it.
    case confirmed(String)
    /// It was in doubt, and Apple was found to hold its token: not sent again.
    case found(String)
    /// Apple refused it, or it failed.
    case failed(String)
    /// Left alone.
    case skipped(LinkSkipReason, String)
  }

  /// Decides a write from what the App Store holds now.
  private func decide(_ write: LinkWriteRow, of run: LinkRunRow, reread: LinkReread) async
    -> Decision
  {
    guard let purchase = reread.purchases[write.originalTransactionId] else {
      return .settled(
        .failed(
          "the App Store's history of the customer no longer lists purchase "
            + "\(write.originalTransactionId); run audit, then plan again"))
    }
    let now = purchase.currentToken
    let wanted = write.newToken.lowercased()
    let before = write.oldToken?.lowercased()
    if now == wanted {
      if write.state == .sent {
        return .settled(.found(Self.foundAnswer))
      }
      return .settled(
        .skipped(.alreadySet, "Apple already holds \(wanted); nothing to send"))
    }
    if write.state == .sent, await Self.holds(write, client: client) {
      // Apple may not list a changed token in the history since a revision; the purchase
      // itself says whether the interrupted request arrived.
      return .settled(.found(Self.foundAnswer))
    }
    guard now == before else {
      let held = now ?? "no token"
      switch run.kind {
      case .apply:
        return .settled(
          .skipped(
            .changedSincePlan,
            "Apple now holds \(held), not \(before ?? "no token") as when planned (set in the "
              + "app or by another writer since the last fetch); not overwritten"))
      case .undo:
        return .settled(
          .skipped(
            .tokenReplacedSince,
            "the purchase carries \(held) now, not \(before ?? "no token") that the undone run "
              + "wrote; left alone"))
      }
    }
    return .send
  }

  static let foundAnswer = "200 (found set after an interruption; not sent again)"

  // MARK: - Asking and sending

  /// Why a customer could not be asked again.
  struct RereadFailure: Error, CustomStringConvertible {
    var description: String
  }

  /// The customer of a write, asked again.
  private func reread(_ write: LinkWriteRow) async throws -> LinkReread {
    guard let customerId = write.customerId,
      let customer = try store.accountRecords(
        write.accountId, compactTransactionFormat: CompactTransaction.formatVersion
      ).customers.first(where: { $0.row.id == customerId })
    else {
      throw RereadFailure(
        description:
          "the store no longer links account \(write.accountId) to the customer of purchase "
          + "\(write.originalTransactionId); plan again")
    }
    let stored = try CompareStage.storedTransactions(of: customer)
    do {
      let reread = try await LinkReread.read(
        walkTransactionId: customer.row.walkTransactionId, environment: customer.row.environment,
        revision: customer.row.historyRevision, stored: stored, accountId: write.accountId,
        client: client)
      outcome.rereadRequests += reread.requests
      observer?.counted(stage, "requests", by: Int64(reread.requests))
      return reread
    } catch {
      if case .unauthorized = error.kind { throw error }
      if case .cancelled = error.kind { throw CancellationError() }
      throw RereadFailure(
        description: "the App Store could not be asked what the customer holds now: \(error)")
    }
  }

  /// Journals how a write ended.
  private func record(_ write: LinkWriteRow, of run: LinkRunRow, _ result: Result) throws {
    let at = now().millisecondsSince1970
    let journal = store.linkJournal
    switch result {
    case .confirmed(let answer), .found(let answer):
      if case .found = result {
        outcome.confirmedWithoutResending += 1
      } else {
        outcome.sent += 1
        observer?.counted(stage, "sent", by: 1)
      }
      if run.kind == .undo, let applyRunId = run.undoesRunId {
        try journal.recordRestored(
          undoRunId: run.id, applyRunId: applyRunId,
          originalTransactionId: write.originalTransactionId, answer: answer,
          answeredMilliseconds: at)
      } else {
        try journal.record(
          runId: run.id, originalTransactionId: write.originalTransactionId, state: .confirmed,
          reason: nil, answer: answer, answeredMilliseconds: at)
      }
    case .failed(let answer):
      outcome.failed += 1
      observer?.counted(stage, "failures", by: 1)
      try journal.record(
        runId: run.id, originalTransactionId: write.originalTransactionId, state: .failed,
        reason: nil, answer: answer, answeredMilliseconds: at)
    case .skipped(let reason, let answer):
      outcome.skipped[reason, default: 0] += 1
      observer?.counted(stage, "skipped", by: 1)
      try journal.record(
        runId: run.id, originalTransactionId: write.originalTransactionId, state: .skipped,
        reason: reason.rawValue, answer: answer, answeredMilliseconds: at)
    }
    observer?.advanced(stage, by: 1)
  }

  /// Whether the run should stop before its next request: a stop was asked for, or the task
  /// was cancelled.
  static var stopRequested: Bool {
    Task.isCancelled || StopRequest.current?.isRequested == true
  }

  /// Sends one write.
  ///
  /// - Throws: `CancellationError` when the request was cancelled: the write stays `sent`, in
  ///   doubt, and the next run checks it; 401 problems no write can get past.
  static func send(_ write: LinkWriteRow, client: AppStoreServerAPIClient) async throws -> Result {
    do {
      try await client.setAppAccountToken(
        write.newToken, forOriginalTransactionId: write.originalTransactionId,
        environment: AppStoreEnvironment(rawValue: write.environment))
      return .confirmed("200")
    } catch {
      if case .cancelled = error.kind { throw CancellationError() }
      if case .unauthorized = error.kind { throw error }
      return .failed("\(error)")
    }
  }

  /// Whether the App Store holds a write's token on the purchase now: a one-time purchase's
  /// own transaction, or a subscription's latest one (from its status).
  static func holds(_ write: LinkWriteRow, client: AppStoreServerAPIClient) async -> Bool {
    let environment = AppStoreEnvironment(rawValue: write.environment)
    do {
      if write.isSubscription {
        let statuses = try await client.allSubscriptionStatuses(
          write.originalTransactionId, environment: environment)
        let entry = statuses.groups.flatMap(\.lastTransactions).first {
          $0.originalTransactionId == write.originalTransactionId
        }
        return entry?.transaction.payload.appAccountToken?.lowercased()
          == write.newToken.lowercased()
      }
      return try await client.transactionInfo(
        write.originalTransactionId, environment: environment
      ).payload.appAccountToken?.lowercased() == write.newToken.lowercased()
    } catch {
      // Unknown is not "held": the write is decided from the reread, at most sent once more.
      return false
    }
  }
}
