import ArgumentParsing

/// Options shared by every command that opens the migration database.
struct StoreOptions: ParsableArguments {
  @Option(name: .customLong("db"), help: "The migration database.")
  var databasePath = "migration.sqlite"

  mutating func validate() throws {
    guard !databasePath.isEmpty else {
      throw ValidationError("--db needs a path; pass --db migration.sqlite")
    }
  }
}
