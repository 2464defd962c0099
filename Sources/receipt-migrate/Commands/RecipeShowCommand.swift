import ArgumentParsing
import Foundation
import JSON
import MigrationPipeline

/// `receipt-migrate recipe show`: every setting of the store's recipe.
struct RecipeShowCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "show",
    abstract: "Show the store's recipe: each setting, its value and who set it when.",
    discussion: """
      Secrets are never shown in full: a webhook URL shows its host only, a token namespace \
      only that it is set. Read-only. Exits 0, or 3 when there is no database.
      """
  )

  @Flag(help: "Print the recipe as JSON.")
  var json = false

  @OptionGroup var store: StoreOptions

  func run() async throws {
    let database = try store.openStore(readOnly: true)
    defer { try? database.close() }
    let recipe = try StoreRecipe.load(from: database)
    if json {
      var writer = JSONWriter(style: .pretty)
      writer.beginObject()
      writer.key("settings")
      writer.beginObject()
      for setting in RecipeSetting.allCases {
        guard let entry = recipe.entries[setting] else { continue }
        writer.key(setting.rawValue)
        writer.beginObject()
        writer.field("value", StoreRecipe.shown(setting, entry.value))
        writer.field("set_by", entry.setBy)
        writer.field("set_at", entry.setAt.iso8601)
        writer.endObject()
      }
      writer.endObject()
      writer.key("unknown")
      writer.beginArray()
      for name in recipe.unknown { writer.value(name) }
      writer.endArray()
      writer.endObject()
      FileHandle.standardOutput.write(Data(writer.bytes + [0x0A]))
      return
    }
    print("Recipe of \(store.path()):")
    for setting in RecipeSetting.allCases {
      if let entry = recipe.entries[setting] {
        print(
          "  \(setting.rawValue): \(StoreRecipe.shown(setting, entry.value))  (\(entry.provenance))"
        )
      } else {
        print("  \(setting.rawValue): not set")
      }
    }
    for name in recipe.unknown {
      print("  \(name): set by a newer receipt-migrate (this version does not use it)")
    }
    print(
      "\nA flag given to a run overrides a setting for that run; change one with "
        + "receipt-migrate recipe set NAME VALUE, remove one with recipe unset NAME.")
  }
}
