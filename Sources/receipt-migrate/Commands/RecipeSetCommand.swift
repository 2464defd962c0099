import ArgumentParsing
import MigrationPipeline

/// `receipt-migrate recipe set`: changes one setting of the store's recipe.
struct RecipeSetCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "set",
    abstract: "Change one setting of the store's recipe.",
    discussion: """
      NAME is a flag's name without the dashes: legacy (one or more paths), catalog, \
      current-entitlements, tokens, derive-tokens, fail-on, fail-threshold, max-requests, \
      max-duration, reports, redact (on/off), keep-reports, notify-command, webhook, \
      metrics-file. Paths are checked and kept absolute, values are checked as the flag \
      checks them. Setting tokens removes derive-tokens and the reverse. The next run uses the \
      new value; "since the last run" then says how the inputs differ from the run it compares \
      with. Exits 0, 2 for an unknown name or a bad value, 3 for a path that cannot be read.
      """
  )

  @Argument(help: ArgumentHelp("The setting.", valueName: "name"))
  var name: String

  @Argument(help: ArgumentHelp("Its value (several paths for legacy).", valueName: "value"))
  var values: [String] = []

  @OptionGroup var store: StoreOptions

  func run() async throws {
    guard let setting = RecipeSetting(rawValue: name) else {
      throw ValidationError(
        "'\(name)' is not a recipe setting; use one of: "
          + RecipeSetting.allCases.map(\.rawValue).joined(separator: ", "))
    }
    let value = try RecipeValueParser.parse(values, for: setting)
    let lock = try store.lock(command: "recipe set")
    defer { lock.release() }
    let database = try store.openStore()
    defer { try? database.close() }
    try StoreRecipe.set(setting, to: value, at: WallClock.now(), in: database)
    print("\(setting.rawValue): \(StoreRecipe.shown(setting, value))")
  }
}
