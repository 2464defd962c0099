import AppStoreServerAPI
import ArgumentParsing
import Chronology
import Foundation
import MigrationPipeline
import MigrationStore
import Terminal

/// `receipt-migrate notifications replay --to URL`: sends the lost notifications to the team's
/// endpoint exactly as Apple would have, journaled so that a rerun sends nothing twice.
struct NotificationsReplayCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "replay",
    abstract: "Send the notifications Apple never delivered to your server, as Apple sends them.",
    discussion: """
      POSTs each lost notification the store holds (found by migrate and audit in Apple's \
      notification history; --run: those one run reported; --since: those signed at or after \
      an instant) to your endpoint exactly as Apple sends notifications — the body \
      {"signedPayload": "<the notification's JWS, as Apple signed it>"}, Content-Type \
      application/json — one at a time, in the order they were signed, at most --rate a \
      second. Every attempt is journaled in the database before it is sent and with its \
      answer after: a notification your endpoint accepted (any 2xx) is never sent to it again, \
      and one it refused or that could not be delivered is sent again by the next run. A \
      notification sent without a recorded answer (the process was killed mid-request, or the \
      answer never came) may have arrived: it is held back until you add --resend-unconfirmed. \
      --dry-run prints what would be sent and where each notification stands, and sends \
      nothing. Exits 0 when every selected notification has been accepted (or none was \
      selected), 2 on a usage error (a URL that is not http or https), 3 on a configuration \
      error (no database, an unknown --run), 4 when some were refused, not delivered or are \
      in doubt, 75 when another command holds the database.
      """
  )

  @Option(
    help: ArgumentHelp(
      "Your endpoint for App Store Server Notifications (https://…).", valueName: "url"))
  var to: String

  @Option(help: ArgumentHelp("Only the notifications this run reported.", valueName: "run-id"))
  var run: String?

  @Option(
    help: ArgumentHelp(
      "Only the notifications signed at or after this instant (ISO 8601 or Unix time).",
      valueName: "instant"))
  var since: String?

  @Option(help: ArgumentHelp("Notifications sent per second at most.", valueName: "n"))
  var rate: Double = ReplayOptions.defaultRate

  @Flag(help: "Print what would be sent, and send nothing.")
  var dryRun = false

  @Flag(
    help:
      "Send again the notifications sent before without a recorded answer (they may reach your server twice)."
  )
  var resendUnconfirmed = false

  @OptionGroup var store: StoreOptions

  mutating func validate() throws {
    guard run == nil || since == nil else {
      throw ValidationError("--run and --since cannot be combined: choose one selection")
    }
    guard rate > 0, rate <= 1000, rate.isFinite else {
      throw ValidationError("--rate must be more than 0 and at most 1000 a second, not \(rate)")
    }
    do {
      _ = try ReplayDestination(parsing: to)
    } catch {
      throw ValidationError(error.description)
    }
    if let since { _ = try InstantArgument.parse(since) }
  }

  func run() async throws {
    let destination = try ReplayDestination(parsing: to)
    let options = ReplayOptions(
      selection: try selection(), ratePerSecond: rate, resendInDoubt: resendUnconfirmed)
    let storePath = store.path()
    if dryRun {
      let database = try StoreOptions.open(storePath, readOnly: true)
      defer { try? database.close() }
      let plan = try await RunFailures.translating {
        try makeStage(database, destination, options).plan()
      }
      print(ReplaySummaryRenderer.text(plan: plan, selection: options.selection), terminator: "")
      return
    }
    // One writer per store: the journal is the store's.
    let lock = try store.lock(command: "notifications replay")
    defer { lock.release() }
    let database = try StoreOptions.open(storePath)
    defer { try? database.close() }
    if destination.scheme == "http" && !destination.isLoopback {
      StandardError.write(
        "receipt-migrate: warning: \(destination) is plain http; the notifications carry your "
          + "customers' purchases and will cross the network unencrypted\n")
    }
    let poster = NotificationPoster(
      destination: destination,
      userAgent: "receipt-migrate/\(ToolVersion.current) (notifications replay)")
    defer { poster.shutDown() }
    let stage = makeStage(database, destination, options)
    let plan = try await RunFailures.translating { try stage.plan() }
    let summary = try await StopSignals.run {
      try await RunFailures.translating { try await stage.run(plan, poster: poster) }
    }
    print(ReplaySummaryRenderer.text(summary, selection: options.selection), terminator: "")
    if summary.failed > 0 || summary.inDoubt > 0 {
      throw ToolFailure.incomplete(
        "\(summary.failed) notification(s) failed and \(summary.inDoubt) are in doubt; each is "
          + "listed above.")
    }
  }

  private func selection() throws -> ReplayOptions.Selection {
    if let run { return .run(run) }
    if let since { return .since(try InstantArgument.parse(since)) }
    return .all
  }

  private func makeStage(
    _ database: MigrationStore, _ destination: ReplayDestination, _ options: ReplayOptions
  ) -> NotificationReplayStage {
    NotificationReplayStage(
      store: database, destination: destination, options: options, now: WallClock.now,
      sleep: SystemTime.sleep(milliseconds:), observer: TerminalProgressObserver())
  }
}
