import AppStoreSimulator
import ArgumentParsing
import Chronology
import LegacyReceipts
import MigrationPipeline
import MigrationReports
import MigrationStore

/// What a run uses, setting by setting: its flags, else the store's recipe, else the embedded
/// simulator's world files or the tool's defaults — checked, with where each came from.
///
/// The first run of a store records what it used in the recipe (and any later run records a
/// setting the recipe does not hold yet), so that a plain `compare`, `audit` or `migrate`
/// afterwards compares exactly what the first one did: an ad-hoc command never drops the
/// catalogue or the team table by leaving out a flag.
struct RunSettings {
  var legacy: [String] = []
  var catalog: String?
  var currentEntitlements: String?
  var tokens: AccountTokenSource?
  var failOn: FailOnPolicy?
  var maxRequests: Int?
  var maxDurationMilliseconds: Int64?
  var reports = ReportFlags.defaultReports
  var redact = false
  /// The settings used, with their origins, for the run's summary.
  var used: [UsedInput] = []

  /// Resolves a run's settings against the store's recipe and records what the recipe lacks.
  ///
  /// - Parameters:
  ///   - command: the command (`migrate`, `audit`, `compare`), recorded as who set a value.
  ///   - storePath: the store.
  ///   - legacy: `--legacy` paths (`nil` for a command without the flag).
  ///   - comparison: the comparison flags.
  ///   - refresh: the refresh flags, for commands that refresh.
  ///   - report: the report flags, for commands that write reports.
  ///   - embedded: the embedded simulator, whose world files are the defaults.
  /// - Returns: the settings.
  /// - Throws: ``ToolFailure/configuration(_:)`` (exit 3) for a file that cannot be read,
  ///   naming the flag or the recipe setting it came from; `ValidationError` for a value that
  ///   is not valid.
  static func resolve(
    command: String, storePath: String, legacy: [String]?, comparison: ComparisonOptions,
    refresh: RefreshFlags? = nil, report: ReportFlags? = nil, embedded: EmbeddedAppStore? = nil
  ) throws -> RunSettings {
    let store = try StoreOptions.open(storePath)
    defer { try? store.close() }
    var resolution = StoreRecipe.Resolution(recipe: try StoreRecipe.load(from: store))
    var settings = RunSettings()
    func world(_ name: String) -> (value: RecipeValue, origin: UsedInput.Origin, detail: String?)? {
      embedded.map { (.text(MigrationRunner.absolutePath($0.file(name))), .simulator, nil) }
    }
    func path(_ flag: String?) -> RecipeValue? {
      flag.map { .text(MigrationRunner.absolutePath($0)) }
    }

    if let legacy {
      let worldReceipts = embedded.map {
        (
          value: RecipeValue.list([
            MigrationRunner.absolutePath($0.file(GeneratedArchive.FileName.receipts))
          ]),
          origin: UsedInput.Origin.simulator, detail: String?.none
        )
      }
      settings.legacy =
        resolution.resolve(
          .legacy, flag: legacy.isEmpty ? nil : .list(legacy.map(MigrationRunner.absolutePath)),
          fallback: worldReceipts)?.list ?? []
    }
    settings.catalog =
      resolution.resolve(
        .catalog, flag: path(comparison.catalog),
        fallback: world(GeneratedArchive.FileName.products))?.text
    settings.currentEntitlements =
      resolution.resolve(
        .currentEntitlements, flag: path(comparison.currentEntitlements),
        fallback: world(GeneratedArchive.FileName.currentEntitlements))?.text

    // The two token flags exclude each other: a flag for either replaces the recipe's mapping.
    let tokenFlag: (RecipeSetting, RecipeValue)? =
      comparison.tokens.tokens.map { (.tokens, .text(MigrationRunner.absolutePath($0))) }
      ?? comparison.tokens.deriveTokens.map { (.deriveTokens, .text($0)) }
    if comparison.tokens.tokens != nil && comparison.tokens.deriveTokens != nil {
      throw ValidationError("--tokens and --derive-tokens cannot be combined; choose one")
    }
    if let (setting, value) = tokenFlag {
      _ = resolution.resolve(setting, flag: value)
    }
    let tokenSetting =
      tokenFlag?.0 ?? (resolution.recipe[.tokens] != nil ? .tokens : .deriveTokens)
    let tokenValue = tokenFlag?.1 ?? resolution.resolve(tokenSetting, flag: nil)
    settings.tokens = try tokenValue?.text.map { value in
      tokenSetting == .tokens
        ? try source(file: value, origin: origin(.tokens, resolution))
        : try derived(namespace: value, origin: origin(.deriveTokens, resolution))
    }

    let failOn = resolution.resolve(.failOn, flag: comparison.failOn.map(RecipeValue.text))?.text
    let threshold = resolution.resolve(
      .failThreshold, flag: comparison.failThreshold.map(RecipeValue.number))?.number
    settings.failOn = try ComparisonOptions.policy(
      failOn: failOn, threshold: threshold, origin: origin(.failOn, resolution))
    if failOn == nil, (threshold ?? 0) > 0 {
      throw ValidationError("--fail-threshold needs --fail-on")
    }

    if let refresh {
      settings.maxRequests =
        resolution.resolve(.maxRequests, flag: refresh.maxRequests.map(RecipeValue.number))?.number
      settings.maxDurationMilliseconds = try resolution.resolve(
        .maxDuration, flag: refresh.maxDuration.map(RecipeValue.text)
      )?.text.map { try DurationArgument.milliseconds($0, flag: origin(.maxDuration, resolution)) }
    }
    if let report {
      settings.reports =
        resolution.resolve(
          .reports, flag: path(report.reports),
          fallback: (.text(ReportFlags.defaultReports), .default, nil))?.text
        ?? ReportFlags.defaultReports
      settings.redact =
        resolution.resolve(.redact, flag: report.redact ? .flag(true) : nil)?.flag ?? false
    }

    // Every file is checked before any work starts (exit 3 naming where it came from).
    try InputChecks.readable(settings.legacy, flag: origin(.legacy, resolution), pipes: true)
    try InputChecks.readable(
      settings.catalog.map { [$0] } ?? [], flag: origin(.catalog, resolution))
    try InputChecks.readable(
      settings.currentEntitlements.map { [$0] } ?? [],
      flag: origin(.currentEntitlements, resolution))

    // A pipe is read once, as it arrives: it is never something a later run can read again.
    var unrecorded = resolution.unrecorded
    if settings.legacy.contains(where: { FileKind(followingLinksAt: $0) == .pipe }) {
      unrecorded[.legacy] = nil
    }
    try StoreRecipe.record(unrecorded, by: command, at: WallClock.now(), in: store)
    settings.used = resolution.used
    return settings
  }

  /// How a message names where a setting came from: its flag, or the recipe entry.
  private static func origin(_ setting: RecipeSetting, _ resolution: StoreRecipe.Resolution)
    -> String
  {
    guard let used = resolution.used.last(where: { $0.name == setting.rawValue }),
      used.origin == .recipe
    else { return setting.flag }
    return "the store's recipe setting \(setting.rawValue) (\(used.detail ?? ""); change it with "
      + "receipt-migrate recipe set \(setting.rawValue) …)"
  }

  private static func source(file: String, origin: String) throws -> AccountTokenSource {
    try InputChecks.readable([file], flag: origin)
    return .file(file)
  }

  private static func derived(namespace: String, origin: String) throws -> AccountTokenSource {
    do {
      return try AccountTokenSource.deriving(namespace: namespace)
    } catch {
      throw ValidationError("\(origin): \(error)")
    }
  }
}
