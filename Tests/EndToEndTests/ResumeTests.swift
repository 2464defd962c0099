import AppStoreSimulator
import Entitlements
import Foundation
import MigrationPipeline
import Synchronization
import TestDirectories
import Testing

/// A run interrupted at any point and run again ends exactly as an uninterrupted run: the same
/// store rows, the same classifications, the same report files, repeating at most the requests
/// that were in flight.
@Suite("End to end: resuming an interrupted run")
struct ResumeTests {
  /// Cancels a task when the simulator has answered a number of requests.
  final class Interrupter: Sendable {
    private let state = Mutex<(answered: Int, task: Task<MigrationOutcome, any Error>?)>((0, nil))
    let after: Int

    init(after: Int) { self.after = after }

    func attach(_ task: Task<MigrationOutcome, any Error>) {
      state.withLock { $0.task = task }
    }

    func answered() {
      state.withLock { state in
        state.answered += 1
        if state.answered == after { state.task?.cancel() }
      }
    }
  }

  @Test("interrupted after n requests, then run again", arguments: [1, 30, 110, 200])
  func resume(afterRequests count: Int) async throws {
    let world = try EndToEnd.world(seed: 22, accounts: 120)

    // The reference: one uninterrupted run.
    let reference = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(reference) }
    let referenceStore = try EndToEnd.AppStore(world: world)
    let expected = try await EndToEnd.runner(
      scratch: reference, appStore: referenceStore,
      options: try EndToEnd.options(
        world: world, reports: reference.appendingPathComponent("r"), runId: "run")
    ).run()
    let referenceRequests = referenceStore.embedded.server.statistics().totalRequests
    referenceStore.stop()
    #expect(count < referenceRequests, "the interruption must come before the end")

    // The same run, cancelled when the simulator has answered `count` requests.
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let interrupter = Interrupter(after: count)
    let appStore = try EndToEnd.AppStore(world: world) { configuration in
      configuration.requestLog = { _ in interrupter.answered() }
    }
    defer { appStore.stop() }
    let options = try EndToEnd.options(
      world: world, reports: scratch.appendingPathComponent("r"), runId: "run")
    let first = Task {
      try await EndToEnd.runner(scratch: scratch, appStore: appStore, options: options).run()
    }
    interrupter.attach(first)
    await #expect(throws: CancellationError.self) { try await first.value }

    // Run again: it finishes, and everything equals the reference.
    let resumed = try await EndToEnd.runner(
      scratch: scratch, appStore: appStore, options: options
    ).run()
    let resumedRows = rows(try resumed.run.comparisons())
    #expect(resumedRows == rows(try expected.run.comparisons()))
    #expect(
      try EndToEnd.storedRows(scratch.appendingPathComponent("store.sqlite").path)
        == EndToEnd.storedRows(reference.appendingPathComponent("store.sqlite").path))
    for file in ["discrepancies.csv", "discrepancies.ndjson"] {
      let mine = try Data(contentsOf: scratch.appendingPathComponent("r/run/\(file)"))
      let theirs = try Data(contentsOf: reference.appendingPathComponent("r/run/\(file)"))
      #expect(mine == theirs, "\(file) differs from the uninterrupted run's")
    }
    let repeated = appStore.embedded.server.statistics().totalRequests - referenceRequests
    #expect(
      repeated <= appStore.connected.client.configuration.maximumConcurrentRequests,
      "\(repeated) requests were repeated; only those in flight may be")
  }

  private func rows(_ comparisons: [AccountComparison]) -> [String] {
    comparisons.map {
      [
        $0.accountId, $0.category.rawValue, $0.tableCategory?.rawValue ?? "",
        $0.cause?.rawValue ?? "", $0.explanation,
      ].joined(separator: "|")
    }
  }
}
