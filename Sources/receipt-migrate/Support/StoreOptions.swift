import ArgumentParsing
import Chronology
import Foundation
import MigrationStore

/// The `--db` option every stage shares.
struct StoreOptions: ParsableArguments {
  @Option(help: ArgumentHelp("The migration database.", valueName: "path"))
  var db: String = MigrationStore.defaultPath

  /// Opens the store, mapping "not ours" and "newer schema" to configuration errors (exit 3).
  func openStore(readOnly: Bool = false) throws -> MigrationStore {
    do {
      return try MigrationStore(
        path: db, readOnly: readOnly, now: { WallClock.now().millisecondsSince1970 })
    } catch let error as SchemaMigrationError {
      throw ToolFailure.configuration("\(error)")
    } catch let error as SQLiteError {
      throw ToolFailure.configuration("cannot open the database: \(error)")
    }
  }
}
