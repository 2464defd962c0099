import Chronology
import CryptoSupport
import Entitlements
import Foundation
import JSON
import LegacyReceipts
import MigrationStore

/// What a run compared, stored with the run so that `report` and `explain` recompute exactly the
/// same classifications later, without the network: the comparison instant, the catalogue's
/// text, and the team table (stored row by row).
public struct RunRecipe: Sendable {
  /// The comparison instant.
  public var asOf: Timestamp
  /// The product catalogue's CSV text, if one was given.
  public var catalogText: String?
  /// The catalogue file's name, for reports.
  public var catalogFile: String?
  /// The team table file's name, if one was compared.
  public var teamTableFile: String?
  /// The team table's path as the run read it (absolute when the run knew it), if one was
  /// compared; `nil` for a run recorded before the store kept it.
  public var teamTablePath: String?
  /// The legacy inputs, for reports.
  public var legacyPaths: [String]
  /// Whether the App Store was simulated.
  public var isSimulated: Bool
  /// The token mapping file's name, when tokens were audited from a file (its rows are stored
  /// with the run).
  public var tokensFile: String?
  /// The namespace UUID tokens were derived in, when they were derived.
  public var tokensNamespace: String?
  /// The maximum data age the run compared with (`--max-data-age`); `nil` for runs recorded
  /// before it was a rule (no bound then).
  public var maxDataAgeMilliseconds: Int64?
  /// Per environment, the instant the App Store data was current through when the run
  /// compared (Unix ms).
  public var watermarks: [String: Int64] = [:]

  /// Creates a recipe.
  public init(
    asOf: Timestamp, catalogText: String?, catalogFile: String?, teamTableFile: String?,
    legacyPaths: [String],
    isSimulated: Bool
  ) {
    self.asOf = asOf
    self.catalogText = catalogText
    self.catalogFile = catalogFile
    self.teamTableFile = teamTableFile
    self.legacyPaths = legacyPaths
    self.isSimulated = isSimulated
  }

  /// The catalogue, parsed.
  ///
  /// - Throws: `ProductCatalogError` (only if the stored text was altered).
  public func catalog() throws -> ProductCatalog? {
    try catalogText.map { try ProductCatalog(csv: $0) }
  }

  /// The recipe as the run's `inputs` JSON.
  public var json: String {
    var writer = JSONWriter()
    writer.beginObject()
    writer.field("as_of_ms", asOf.millisecondsSince1970)
    writer.field("catalog_file", catalogFile)
    writer.field("catalog_csv", catalogText)
    writer.field("team_table_file", teamTableFile)
    writer.field("team_table_path", teamTablePath)
    writer.key("legacy_paths")
    writer.beginArray()
    for path in legacyPaths { writer.value(path) }
    writer.endArray()
    writer.field("simulated", isSimulated)
    writer.field("tokens_file", tokensFile)
    writer.field("tokens_namespace", tokensNamespace)
    if let maxDataAgeMilliseconds { writer.field("max_data_age_ms", maxDataAgeMilliseconds) }
    if !watermarks.isEmpty {
      writer.key("watermarks_ms")
      writer.beginObject()
      for (environment, instant) in watermarks.sorted(by: { $0.key < $1.key }) {
        writer.field(environment, instant)
      }
      writer.endObject()
    }
    writer.endObject()
    return writer.string
  }

  /// Reads a run's recipe back.
  ///
  /// - Parameter run: the stored run.
  /// - Returns: the recipe.
  /// - Throws: ``Failure`` when the stored inputs are not a recipe.
  public static func read(_ run: RunRow) throws -> RunRecipe {
    let value: JSONValue
    do {
      value = try JSONValue(parsing: Array(run.inputs.utf8))
    } catch {
      throw Failure(description: "the run \(run.id) has unreadable inputs: \(error)")
    }
    var recipe = RunRecipe(
      asOf: Timestamp(millisecondsSince1970: value["as_of_ms"]?.int64Value ?? run.asOfMilliseconds),
      catalogText: value["catalog_csv"]?.stringValue,
      catalogFile: value["catalog_file"]?.stringValue,
      teamTableFile: value["team_table_file"]?.stringValue,
      legacyPaths: {
        if case .array(let paths)? = value["legacy_paths"] {
          return paths.compactMap(\.stringValue)
        } else {
          return []
        }
      }(),
      isSimulated: value["simulated"]?.boolValue ?? run.isSimulated)
    recipe.teamTablePath = value["team_table_path"]?.stringValue
    recipe.tokensFile = value["tokens_file"]?.stringValue
    recipe.tokensNamespace = value["tokens_namespace"]?.stringValue
    recipe.maxDataAgeMilliseconds = value["max_data_age_ms"]?.int64Value
    if case .object(let members)? = value["watermarks_ms"] {
      for member in members { recipe.watermarks[member.key] = member.value.int64Value }
    }
    return recipe
  }

  /// What the run's classifications depend on besides the store's data: the catalogue's
  /// content and the team table it compared (by path: the file's content is expected to change
  /// from night to night, its place is not). Runs with the same key are runs of the same
  /// inputs, and "since the last run" compares a run with the last reported run of its key.
  public var key: String {
    var text = "catalog:"
    if let catalogText { text += SHA256.hexDigest(Array(catalogText.utf8)) } else { text += "-" }
    text += "\nteam-table:" + (teamTablePath ?? teamTableFile ?? "-")
    return SHA256.hexDigest(Array(text.utf8))
  }

  /// How reports name the token mapping, or `nil` when the run did not audit tokens.
  public var tokenMapping: String? {
    if let tokensFile { return tokensFile }
    return tokensNamespace.map { AccountTokenSource.derived(namespace: $0).description }
  }

  /// Why a stored run cannot be recomputed.
  public struct Failure: Error, CustomStringConvertible {
    /// The explanation.
    public var description: String
  }

  /// The comparison options this recipe stands for, with the run's stored team table.
  ///
  /// - Parameters:
  ///   - store: the store holding the run.
  ///   - runId: the run.
  /// - Returns: the options.
  /// - Throws: `SQLiteError` or a catalogue error.
  public func compareOptions(store: MigrationStore, runId: String) throws -> CompareOptions {
    var tokens: AccountTokenMapping?
    if tokensFile != nil {
      var mapping = AccountTokenMapping()
      for (account, token) in try store.runAccountTokens(runId: runId) {
        mapping.add(token: token, forAccount: account)
      }
      tokens = mapping
    } else if let tokensNamespace {
      tokens = try AccountTokenSource.derived(namespace: tokensNamespace).load(
        accounts: try store.accountIds()
      ).mapping
    }
    var options = CompareOptions(
      asOf: asOf, catalog: Self.completing(try catalog(), from: try store.productsSeen()),
      storedTableRunId: teamTableFile != nil ? runId : nil, tokens: tokens,
      maxDataAgeMilliseconds: maxDataAgeMilliseconds)
    options.watermarks = watermarks.mapValues(Timestamp.init(millisecondsSince1970:))
    return options
  }

  /// The catalogue given (or none), completed with every product the App Store's signed
  /// transactions describe and the catalogue omits: its kind from Apple's `type`, and a
  /// subscription's group. Without it, the team table's rows could only be keyed by product
  /// while both other sides are keyed by subscription group, and every subscription would
  /// differ. A catalogue entry always wins; a non-renewing subscription learnt this way has no
  /// duration (the App Store does not carry one), so it stays `duration_unknown`.
  static func completing(
    _ catalog: ProductCatalog?, from seen: [(productId: String, type: String?, group: String?)]
  ) -> ProductCatalog? {
    var products = catalog?.products ?? [:]
    for product in seen where products[product.productId] == nil {
      guard let kind = product.type.flatMap(ProductKind.init(parsing:)) else { continue }
      products[product.productId] = ProductCatalog.Product(
        kind: kind, subscriptionGroupIdentifier: kind == .autoRenewable ? product.group : nil)
    }
    return products.isEmpty ? catalog : ProductCatalog(products: products)
  }
}
