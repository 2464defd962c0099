import ArgumentParsing
import MigrationPipeline

/// `receipt-migrate recipe unset`: removes one setting of the store's recipe.
struct RecipeUnsetCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "unset",
    abstract: "Remove one setting of the store's recipe; runs then use the flag or the default.",
    discussion: """
      The next run that uses the setting from a flag records it again. Exits 0, 2 for an \
      unknown name.
      """
  )

  @Argument(help: ArgumentHelp("The setting.", valueName: "name"))
  var name: String

  @OptionGroup var store: StoreOptions

  func run() async throws {
    guard let setting = RecipeSetting(rawValue: name) else {
      throw ValidationError(
        "'\(name)' is not a recipe setting; use one of: "
          + RecipeSetting.allCases.map(\.rawValue).joined(separator: ", "))
    }
    let lock = try store.lock(command: "recipe unset")
    defer { lock.release() }
    let database = try store.openStore()
    defer { try? database.close() }
    let removed = try database.recipeBook.remove(setting.rawValue)
    print(removed ? "\(setting.rawValue): removed" : "\(setting.rawValue) was not set")
  }
}
