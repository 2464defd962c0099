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
    try Self.tightenPermissions(of: path)
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

  /// Makes an existing database (and its `-wal` and `-shm` files) readable by its owner only.
  ///
  /// The store holds customers' purchase histories and signed App Store data; a file copied
  /// in, restored from a backup or created under a loose umask may be readable by everyone.
  /// Such a file is tightened to 0600 with a notice; one this user cannot change is refused.
  ///
  /// - Parameter path: the database file.
  /// - Throws: ``ToolFailure/configuration(_:)`` when a file is too open and cannot be changed.
  static func tightenPermissions(of path: String) throws {
    for file in [path, path + "-wal", path + "-shm"] {
      var status = stat()
      guard stat(file, &status) == 0 else { continue }
      let mode = status.st_mode & 0o777
      guard mode & 0o077 != 0 else { continue }
      guard chmod(file, mode & 0o700) == 0 else {
        throw ToolFailure.configuration(
          "\(file) can be read by other users (mode \(String(mode, radix: 8))) and cannot be "
            + "changed (\(String(cString: strerror(errno)))); it holds customers' purchase "
            + "data: make it owner-only (chmod 600) or use another --db")
      }
      StandardError.write(
        "receipt-migrate: \(file) could be read by other users (mode \(String(mode, radix: 8))); "
          + "made it owner-only (\(String(mode & 0o700, radix: 8)))\n")
    }
  }
}
