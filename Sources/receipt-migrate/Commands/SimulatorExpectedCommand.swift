import AppStoreSimulator
import ArgumentParsing
import Chronology
import Foundation

/// `receipt-migrate simulator expected`: what a correct comparison must find at any instant of
/// a world's timeline, from the simulator's oracle.
struct SimulatorExpectedCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "expected",
    abstract: "Print the categories a correct comparison must find at an instant of a world.",
    discussion: """
      Prints expected.csv (account_id,category,table_category,table_flaws) for the instant \
      --at of the world's timeline (default: the world's clock), decided by the simulator's \
      oracle from the world's truth, independently of the comparison. --table writes the team's \
      entitlement table as the world's flawed legacy logic holds it at that instant \
      (current-entitlements.csv's format), so a nightly audit can be played night by night. \
      With --data-as-of, the App Store data is taken to have been fetched at that earlier \
      instant and never refreshed: accounts whose data has run out by --at, or is older than \
      --max-data-age (3d) then, are stale_app_store_data. With --data-fetched-at, it was \
      fetched at that later instant: the new side is what that data says about --at.
      """
  )

  @Option(help: ArgumentHelp("A directory written by simulator generate.", valueName: "dir"))
  var world: String

  @Option(
    help: ArgumentHelp(
      "The comparison instant (default: the world's clock).", valueName: "instant"))
  var at: String?

  @Option(
    help: ArgumentHelp(
      "When the App Store data was fetched, if earlier than --at and never refreshed.",
      valueName: "instant"))
  var dataAsOf: String?

  @Option(
    help: ArgumentHelp(
      "When the App Store data was fetched, if later than --at.", valueName: "instant"))
  var dataFetchedAt: String?

  @Option(
    help: ArgumentHelp(
      "How old never-refreshed data may be at --at (with --data-as-of; default 3d).",
      valueName: "duration"))
  var maxDataAge: String = "3d"

  @Option(help: ArgumentHelp("Write expected.csv here instead of printing it.", valueName: "file"))
  var out: String?

  @Option(
    help: ArgumentHelp(
      "Write the team's entitlement table at that instant here.", valueName: "file"))
  var table: String?

  mutating func validate() throws {
    if let at { _ = try InstantArgument.parse(at) }
    if let dataAsOf { _ = try InstantArgument.parse(dataAsOf) }
    if let dataFetchedAt { _ = try InstantArgument.parse(dataFetchedAt) }
    _ = try DurationArgument.milliseconds(maxDataAge, flag: "--max-data-age")
  }

  func run() async throws {
    let setup: SimulatorSetup
    do {
      setup = try SimulatorSetup.prepare(worldDirectory: world)
    } catch {
      throw ToolFailure.configuration("\(error)")
    }
    let instant = try at.map(InstantArgument.parse) ?? setup.world.now
    guard instant <= setup.world.latestClock else {
      throw ValidationError(
        "--at \(instant) lies after the end of the world's timeline (\(setup.world.latestClock)); "
          + "generate the world with --days-after to look further")
    }
    let files = GeneratedArchive(world: setup.world).expectations(
      at: instant, dataAsOf: try dataAsOf.map(InstantArgument.parse),
      dataFetchedAt: try dataFetchedAt.map(InstantArgument.parse),
      maxDataAge: try DurationArgument.milliseconds(maxDataAge, flag: "--max-data-age"))
    if let table { try write(files.table, to: table) }
    if let out {
      try write(files.expected, to: out)
    } else {
      print(files.expected, terminator: "")
    }
  }

  private func write(_ text: String, to path: String) throws {
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw ToolFailure.configuration("cannot write \(path): \(error.localizedDescription)")
    }
  }
}
