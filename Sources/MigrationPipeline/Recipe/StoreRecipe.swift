import Chronology
import MigrationReports
import MigrationStore

/// The store's recipe, read: each setting's value and who set it when (see ``RecipeSetting``).
public struct StoreRecipe: Sendable {
  /// One recorded setting.
  public struct Entry: Hashable, Sendable {
    /// Its value.
    public var value: RecipeValue
    /// Who set it: a run's command (`migrate`, `audit`, `compare`) or `recipe set`.
    public var setBy: String
    /// When.
    public var setAt: Timestamp

    /// "set by migrate on 2026-11-27".
    public var provenance: String { "set by \(setBy) on \(setAt.iso8601.prefix(10))" }
  }

  /// The recorded settings.
  public var entries: [RecipeSetting: Entry]
  /// Stored settings this version does not know (written by a newer one), by name.
  public var unknown: [String]

  /// A recipe with nothing recorded.
  public init() {
    entries = [:]
    unknown = []
  }

  /// Reads the store's recipe.
  ///
  /// - Parameter store: the store.
  /// - Returns: the recipe.
  /// - Throws: `SQLiteError`.
  public static func load(from store: MigrationStore) throws -> StoreRecipe {
    var recipe = StoreRecipe()
    for row in try store.recipeBook.settings() {
      guard let setting = RecipeSetting(rawValue: row.name),
        let value = RecipeValue(json: row.value)
      else {
        recipe.unknown.append(row.name)
        continue
      }
      recipe.entries[setting] = Entry(
        value: value, setBy: row.setBy,
        setAt: Timestamp(millisecondsSince1970: row.setMilliseconds))
    }
    return recipe
  }

  /// A recorded value.
  public subscript(setting: RecipeSetting) -> RecipeValue? { entries[setting]?.value }

  // MARK: - Resolving a run's settings

  /// A run's settings, resolved one by one from its flags, the recipe and defaults: the values
  /// to run with, where each came from, and what the recipe does not hold yet.
  public struct Resolution: Sendable {
    /// The recipe resolved against.
    public let recipe: StoreRecipe
    /// The settings used and their origins, in the order resolved.
    public private(set) var used: [UsedInput] = []
    /// Values the recipe lacks that this run used from a flag or the simulator's world: the
    /// recipe records them (``StoreRecipe/record(_:by:at:in:)``).
    public private(set) var unrecorded: [RecipeSetting: RecipeValue] = [:]

    /// Starts resolving against a recipe.
    public init(recipe: StoreRecipe) {
      self.recipe = recipe
    }

    /// Resolves one setting: the flag when given, else the recipe's value, else the fallback.
    ///
    /// - Parameters:
    ///   - setting: the setting.
    ///   - flag: the flag's value, or `nil` when it was not given.
    ///   - fallback: the value without flag or recipe (the simulator's world, or a default),
    ///     with its origin, or `nil` for none.
    /// - Returns: the value to run with, or `nil` for none.
    public mutating func resolve(
      _ setting: RecipeSetting, flag: RecipeValue?,
      fallback: (value: RecipeValue, origin: UsedInput.Origin, detail: String?)? = nil
    ) -> RecipeValue? {
      let stored = recipe.entries[setting]
      if let flag {
        note(
          setting, flag, .flag,
          stored.map { $0.value == flag ? setting.flag : "\(setting.flag), not the recipe's" }
            ?? setting.flag)
        if stored == nil { unrecorded[setting] = flag }
        return flag
      }
      if let stored {
        note(setting, stored.value, .recipe, stored.provenance)
        return stored.value
      }
      guard let fallback else { return nil }
      note(setting, fallback.value, fallback.origin, fallback.detail)
      if fallback.origin == .simulator { unrecorded[setting] = fallback.value }
      return fallback.value
    }

    private mutating func note(
      _ setting: RecipeSetting, _ value: RecipeValue, _ origin: UsedInput.Origin, _ detail: String?
    ) {
      used.append(
        UsedInput(
          name: setting.rawValue, value: StoreRecipe.shown(setting, value), origin: origin,
          detail: detail))
    }
  }

  /// A value as reports and `config show` show it: secrets masked.
  ///
  /// - Parameters:
  ///   - setting: the setting.
  ///   - value: its value.
  /// - Returns: the text.
  public static func shown(_ setting: RecipeSetting, _ value: RecipeValue) -> String {
    guard setting.isSecret, let text = value.text else { return value.display }
    if setting == .webhook { return CommandLineScrubber.redactedURL(text) }
    return "<namespace set>"
  }

  // MARK: - Writing

  /// Records the settings the recipe does not hold yet; those it holds keep their values.
  ///
  /// - Parameters:
  ///   - values: the settings.
  ///   - setBy: the command recording them.
  ///   - at: when.
  ///   - store: the store.
  /// - Returns: the settings recorded.
  /// - Throws: `SQLiteError`.
  @discardableResult
  public static func record(
    _ values: [RecipeSetting: RecipeValue], by setBy: String, at: Timestamp,
    in store: MigrationStore
  ) throws -> [RecipeSetting] {
    try store.recipeBook.add(
      values.sorted { $0.key.rawValue < $1.key.rawValue }.map {
        RecipeSettingRow(
          name: $0.key.rawValue, value: $0.value.json, setBy: setBy,
          setMilliseconds: at.millisecondsSince1970)
      }
    ).compactMap(RecipeSetting.init(rawValue:))
  }

  /// Sets one setting, replacing its value (`recipe set`); `--tokens` and `--derive-tokens`
  /// exclude each other, so setting one removes the other.
  ///
  /// - Parameters:
  ///   - setting: the setting.
  ///   - value: its value, already checked.
  ///   - at: when.
  ///   - store: the store.
  /// - Throws: `SQLiteError`.
  public static func set(
    _ setting: RecipeSetting, to value: RecipeValue, at: Timestamp, in store: MigrationStore
  ) throws {
    try store.writeTransaction {
      if setting == .tokens { try store.recipeBook.remove(RecipeSetting.deriveTokens.rawValue) }
      if setting == .deriveTokens { try store.recipeBook.remove(RecipeSetting.tokens.rawValue) }
      try store.recipeBook.set(
        RecipeSettingRow(
          name: setting.rawValue, value: value.json, setBy: "recipe set",
          setMilliseconds: at.millisecondsSince1970))
    }
  }
}
