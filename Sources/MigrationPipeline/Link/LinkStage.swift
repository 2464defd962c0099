import AppStoreServerAPI
import Chronology
import Entitlements
import MigrationStore

/// Sends Set App Account Token for a plan, journaling every write in the store so that a
/// killed run resumes without repeating one.
///
/// Each write is recorded `sending` (committed) before its request leaves, and its answer
/// after. A rerun resumes the open run: writes never sent are sent; a write found `sending`
/// is in doubt (the process died between request and answer), so the App Store is asked what
/// the purchase carries now, and the write is sent again only when the token is not there.
/// Pacing and retries are the client's: Apple's 20 requests per second (2 in sandbox), 429
/// answered by waiting until `Retry-After`, "try again" codes retried with back-off, and codes
/// such as 4000183, 4000185 and 4000187 never retried.
public struct LinkStage {
  private let store: MigrationStore
  private let client: AppStoreServerAPIClient
  private let concurrency: Int
  private let now: @Sendable () -> Timestamp

  /// Creates the stage.
  ///
  /// - Parameters:
  ///   - store: the store holding the journal.
  ///   - client: the App Store.
  ///   - concurrency: the most writes in flight at once (the rate limit paces them).
  ///   - now: the clock that dates the journal.
  public init(
    store: MigrationStore, client: AppStoreServerAPIClient, concurrency: Int = 8,
    now: @escaping @Sendable () -> Timestamp
  ) {
    self.store = store
    self.client = client
    self.concurrency = max(1, concurrency)
    self.now = now
  }

  // MARK: - Starting or resuming a run

  /// Journals a new apply run for a plan, or returns the open one a killed run left.
  ///
  /// - Parameters:
  ///   - plan: what to write (ignored when a run is open: its journal is the plan).
  ///   - mapping: how the tokens were chosen, for the journal.
  ///   - runId: the new run's id.
  /// - Returns: the run to carry out, or `nil` when there is nothing to write.
  /// - Throws: `SQLiteError`.
  public func openApply(plan: LinkPlan, mapping: String, runId: String) throws -> LinkRunRow? {
    if let open = try store.openLinkRun(kind: .apply) { return open }
    guard !plan.sendable.isEmpty else { return nil }
    let run = LinkRunRow(
      id: runId, kind: .apply, undoesRunId: nil, mapping: mapping,
      startedMilliseconds: now().millisecondsSince1970)
    try store.beginLinkRun(
      run,
      writes: plan.writes.map { write in
        LinkWriteRow(
          runId: runId, originalTransactionId: write.purchase.originalTransactionId,
          accountId: write.accountId, customerId: write.customerId,
          environment: write.purchase.environment, isSubscription: write.purchase.isSubscription,
          oldToken: write.purchase.currentToken, newToken: write.newToken,
          state: write.refusal == nil ? .planned : .refused, answer: write.refusal,
          answeredMilliseconds: write.refusal == nil ? nil : now().millisecondsSince1970)
      })
    return run
  }

  /// The writes that would undo an apply run: each accepted write whose purchase had a token
  /// before gets it back; one that had none is refused (Apple cannot remove a token).
  ///
  /// - Parameters:
  ///   - applyRunId: the apply run.
  ///   - runId: the undo run's id.
  /// - Returns: the planned writes.
  /// - Throws: ``LinkFailure`` when there is no such apply run; `SQLiteError`.
  public func undoPlan(of applyRunId: String, runId: String) throws -> [LinkWriteRow] {
    guard let apply = try store.linkRun(applyRunId), apply.kind == .apply else {
      throw LinkFailure(
        description:
          "the database \(store.path) has no link run \(applyRunId) that applied tokens; "
          + "its id is printed by link --apply")
    }
    return try store.linkWrites(runId: applyRunId).filter { $0.state == .applied }.map { write in
      LinkWriteRow(
        runId: runId, originalTransactionId: write.originalTransactionId,
        accountId: write.accountId, customerId: write.customerId, environment: write.environment,
        isSubscription: write.isSubscription, oldToken: write.newToken,
        newToken: write.oldToken ?? "",
        state: write.oldToken == nil ? .refused : .planned,
        answer: write.oldToken == nil
          ? "the purchase had no token before \(applyRunId); Apple cannot remove one, so it "
            + "keeps \(write.newToken)" : nil,
        answeredMilliseconds: write.oldToken == nil ? now().millisecondsSince1970 : nil)
    }
  }

  /// Journals a new undo run, or returns the open one a killed undo left.
  ///
  /// - Parameters:
  ///   - applyRunId: the apply run to undo.
  ///   - runId: the new run's id.
  /// - Returns: the run, or `nil` when the apply was undone already.
  /// - Throws: ``LinkFailure``, `SQLiteError`.
  public func openUndo(of applyRunId: String, runId: String) throws -> LinkRunRow? {
    if let open = try store.openLinkRun(kind: .undo, undoing: applyRunId) { return open }
    guard try store.undoRuns(of: applyRunId).isEmpty else { return nil }
    let writes = try undoPlan(of: applyRunId, runId: runId)
    let run = LinkRunRow(
      id: runId, kind: .undo, undoesRunId: applyRunId, mapping: "undo of \(applyRunId)",
      startedMilliseconds: now().millisecondsSince1970)
    try store.beginLinkRun(run, writes: writes)
    return run
  }

  // MARK: - Carrying a run out

  /// Sends every write of the run that has no answer yet, and closes the run when each has one.
  ///
  /// - Parameter run: the run.
  /// - Returns: how many were accepted, and how many in-doubt writes were found done already.
  /// - Throws: `CancellationError` when a stop was requested (what was answered is journaled),
  ///   `SQLiteError`.
  @discardableResult
  public func carryOut(_ run: LinkRunRow) async throws -> (applied: Int, confirmed: Int) {
    var applied = 0
    var confirmed = 0
    var pending = try store.linkWrites(runId: run.id).filter {
      $0.state == .planned || $0.state == .sending
    }[...]
    try await withThrowingTaskGroup(of: (LinkWriteRow, Outcome).self) { group in
      var inFlight = 0
      func record(_ write: LinkWriteRow, _ outcome: Outcome) throws {
        switch outcome {
        case .applied: applied += 1
        case .alreadyThere: confirmed += 1
        case .failed: break
        }
        try store.recordLinkWriteAnswer(
          runId: run.id, originalTransactionId: write.originalTransactionId,
          state: outcome.state, answer: outcome.answer,
          answeredMilliseconds: now().millisecondsSince1970)
      }
      while let write = pending.popFirst() {
        try StopRequest.checkpoint()
        if inFlight >= concurrency, let (done, outcome) = try await group.next() {
          inFlight -= 1
          try record(done, outcome)
        }
        let inDoubt = write.state == .sending
        try store.markLinkWriteSending(
          runId: run.id, originalTransactionId: write.originalTransactionId,
          attemptedMilliseconds: now().millisecondsSince1970)
        let client = self.client
        group.addTask {
          (write, await Self.send(write, inDoubt: inDoubt, client: client))
        }
        inFlight += 1
      }
      // Every request in flight is answered and journaled, even when a stop was asked for.
      while let (done, outcome) = try await group.next() {
        try record(done, outcome)
      }
    }
    try StopRequest.checkpoint()
    try store.finishLinkRun(run.id, finishedMilliseconds: now().millisecondsSince1970)
    return (applied, confirmed)
  }

  /// What became of one write.
  enum Outcome: Sendable {
    case applied
    case alreadyThere
    case failed(String)

    var state: LinkWriteRow.State {
      switch self {
      case .applied, .alreadyThere: .applied
      case .failed: .failed
      }
    }

    var answer: String {
      switch self {
      case .applied: "200"
      case .alreadyThere: "200 (found set when the run resumed; not sent again)"
      case .failed(let reason): reason
      }
    }
  }

  /// Sends one write; for one in doubt, first asks whether the App Store holds it already.
  static func send(_ write: LinkWriteRow, inDoubt: Bool, client: AppStoreServerAPIClient) async
    -> Outcome
  {
    let environment = AppStoreEnvironment(rawValue: write.environment)
    if inDoubt,
      let current = try? await currentToken(of: write, environment: environment, client: client),
      current == write.newToken.lowercased()
    {
      return .alreadyThere
    }
    do {
      try await client.setAppAccountToken(
        write.newToken, forOriginalTransactionId: write.originalTransactionId,
        environment: environment)
      return .applied
    } catch {
      return .failed("\(error)")
    }
  }

  /// The token the App Store holds now for a purchase: a one-time purchase's own, or a
  /// subscription's latest transaction's (from its status).
  static func currentToken(
    of write: LinkWriteRow, environment: AppStoreEnvironment, client: AppStoreServerAPIClient
  ) async throws -> String? {
    if write.isSubscription {
      let statuses = try await client.allSubscriptionStatuses(
        write.originalTransactionId, environment: environment)
      let entry = statuses.groups.flatMap(\.lastTransactions).first {
        $0.originalTransactionId == write.originalTransactionId
      }
      return entry?.transaction.payload.appAccountToken?.lowercased()
    }
    return try await client.transactionInfo(write.originalTransactionId, environment: environment)
      .payload.appAccountToken?.lowercased()
  }
}
