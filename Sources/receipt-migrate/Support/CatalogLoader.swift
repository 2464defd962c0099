import Foundation
import LegacyReceipts

/// Reads the product catalogue file named by `--catalog`.
enum CatalogLoader {
  static func load(_ path: String) throws -> ProductCatalog {
    let text: String
    do {
      text = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw ToolFailure.configuration(
        "cannot read the product catalogue at \(path): \(error.localizedDescription)")
    }
    do {
      return try ProductCatalog(csv: text)
    } catch {
      throw ToolFailure.configuration("the product catalogue at \(path) is invalid: \(error)")
    }
  }
}
