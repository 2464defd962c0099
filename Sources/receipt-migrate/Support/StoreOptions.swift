import ArgumentParsing
import Chronology
import Foundation
import MigrationPipeline
import MigrationStore
import Terminal

/// The `--db` option every stage shares. Without it, a command uses
/// `.receipt-migrate/state.sqlite` when App Store credentials are configured and
/// `.receipt-migrate/simulated.sqlite` when they are not (the embedded simulator's runs), so the
/// sample's simulated data and a team's real data never share a file by accident.
struct StoreOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The migration database (default: .receipt-migrate/state.sqlite with App Store "
        + "credentials, .receipt-migrate/simulated.sqlite without).",
      valueName: "path"))
  var db: String?

  @Option(
    help: ArgumentHelp(
      "The configuration file (default: .receipt-migrate/config.json when it exists); it also "
        + "decides the default database.", valueName: "file"))
  var config: String?

  /// The store when no App Store credentials are configured.
  @Flag(
    help:
      "When another run writes the database, wait for it to finish instead of refusing (exit 75)."
  )
  var wait = false

  static let simulatedPath = ".receipt-migrate/simulated.sqlite"

  /// Takes the store's lock for a command that writes it: one run per store.
  ///
  /// - Parameter command: the subcommand, such as `audit`.
  /// - Returns: the lock; keep it until the command ends.
  /// - Throws: ``ToolFailure/busy(_:)`` (exit 75) when another process holds the store.
  func lock(command: String) throws -> StoreLock {
    let path = path()
    do {
      return try StoreLock.acquire(
        forDatabaseAt: path, command: "receipt-migrate \(command)",
        since: WallClock.now().iso8601, wait: wait,
        waiting: { holder in
          StandardError.write(
            "receipt-migrate: waiting for \(holder?.description ?? "another process") to finish "
              + "with \(path)\n")
        })
    } catch let busy as StoreLock.Busy {
      throw ToolFailure.busy(busy.description)
    } catch {
      throw ToolFailure.configuration("\(error)")
    }
  }

  /// The store file: `--db`, or the default for the configuration.
  func path() -> String {
    if let db { return db }
    return ToolConfiguration.credentialsConfigured(
      file: config, environment: ProcessInfo.processInfo.environment)
      ? MigrationStore.defaultPath : Self.simulatedPath
  }

  /// Opens the store, mapping "not ours" and "newer schema" to configuration errors (exit 3).
  func openStore(readOnly: Bool = false) throws -> MigrationStore {
    try Self.open(path(), readOnly: readOnly)
  }

  /// Opens a store file, mapping "not ours" and "newer schema" to configuration errors.
  static func open(_ path: String, readOnly: Bool = false) throws -> MigrationStore {
    if readOnly && !FileManager.default.fileExists(atPath: path) {
      throw ToolFailure.configuration(
        "the database \(path) does not exist; run receipt-migrate migrate first, or name "
          + "another with --db")
    }
    do {
      return try MigrationStore(
        path: path, readOnly: readOnly, now: { WallClock.now().millisecondsSince1970 })
    } catch let error as SchemaMigrationError {
      throw ToolFailure.configuration("\(error)")
    } catch let error as SQLiteError {
      throw ToolFailure.configuration("cannot open the database \(path): \(error)")
    }
  }
}
