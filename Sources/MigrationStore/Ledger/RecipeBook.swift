/// The store's recipe: the inputs and settings the job runs with, kept in the store so that
/// every later command runs with the same ones unless told otherwise (`recipe_settings`).
///
/// The book stores and returns values; what a setting means, and which command uses it, is the
/// pipeline's (`StoreRecipe`).
public struct RecipeBook {
  let database: SQLiteDatabase

  /// Every setting, by name.
  ///
  /// - Returns: the settings, sorted by name.
  /// - Throws: `SQLiteError`.
  public func settings() throws -> [RecipeSettingRow] {
    var rows: [RecipeSettingRow] = []
    try database.forEachRow(
      "SELECT name, value, set_by, set_ms FROM recipe_settings ORDER BY name"
    ) { row in
      rows.append(
        RecipeSettingRow(
          name: try row.string(at: 0), value: try row.string(at: 1), setBy: try row.string(at: 2),
          setMilliseconds: try row.int64(at: 3)))
    }
    return rows
  }

  /// Sets a setting, replacing any value it held.
  ///
  /// - Parameter row: the setting.
  /// - Throws: `SQLiteError`.
  public func set(_ row: RecipeSettingRow) throws {
    try database.run(
      """
      INSERT INTO recipe_settings (name, value, set_by, set_ms) VALUES (?, ?, ?, ?)
      ON CONFLICT (name) DO UPDATE SET value = excluded.value, set_by = excluded.set_by,
        set_ms = excluded.set_ms
      """,
      binding: row.name, row.value, row.setBy, row.setMilliseconds)
  }

  /// Sets settings the recipe does not hold yet, all in one transaction; those it holds keep
  /// their values.
  ///
  /// - Parameter rows: the settings.
  /// - Returns: the names of the settings that were added.
  /// - Throws: `SQLiteError`.
  @discardableResult
  public func add(_ rows: [RecipeSettingRow]) throws -> [String] {
    try database.transaction(.immediate) {
      var added: [String] = []
      for row in rows {
        try database.run(
          "INSERT OR IGNORE INTO recipe_settings (name, value, set_by, set_ms) VALUES (?, ?, ?, ?)",
          binding: row.name, row.value, row.setBy, row.setMilliseconds)
        if try database.firstRow("SELECT changes()", decode: { try $0.int(at: 0) }) == 1 {
          added.append(row.name)
        }
      }
      return added
    }
  }

  /// Removes a setting.
  ///
  /// - Parameter name: the setting.
  /// - Returns: whether the recipe held it.
  /// - Throws: `SQLiteError`.
  @discardableResult
  public func remove(_ name: String) throws -> Bool {
    try database.run("DELETE FROM recipe_settings WHERE name = ?", binding: name)
    return try database.firstRow("SELECT changes()", decode: { try $0.int(at: 0) }) == 1
  }
}

extension MigrationStore {
  /// The store's recipe.
  public var recipeBook: RecipeBook { RecipeBook(database: database) }
}
