import ArgumentParsing
import Chronology
import Foundation
import LegacyReceipts
import MigrationPipeline
import MigrationStore

/// `receipt-migrate ingest`: read legacy inputs into the migration database.
struct IngestCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ingest",
    abstract: "Read stored verifyReceipt responses, raw receipts and id lists into the database.",
    discussion: """
      Accepts NDJSON files (one {"account_id", "response" | "receipt_data"} record per line), \
      directories of .json responses and CSV files of account_id,original_transaction_id \
      [,environment]; see Legacy/README.md. Inputs that cannot be read are quarantined with \
      their position and reason, and reading goes on. Ingesting the same input again adds \
      nothing. Exits 0 when every record was accepted, 4 when any was quarantined.
      """
  )

  @Argument(help: ArgumentHelp("Files or directories to read.", valueName: "path"))
  var paths: [String]

  @OptionGroup var store: StoreOptions

  @Option(help: "Read every file in this format instead of detecting it.")
  var format: LegacyInputFormat?

  @Option(
    help: ArgumentHelp(
      "The product catalogue (product_id,type[,subscription_group_identifier]).", valueName: "csv"))
  var catalog: String?

  @Option(
    help: ArgumentHelp(
      "Also evaluate the old logic at this instant (ISO 8601, Unix seconds or ms).",
      valueName: "instant"),
    transform: InstantArgument.parse)
  var asOf: Timestamp?

  @Option(help: "The largest record accepted, in bytes; larger ones are quarantined.")
  var maxRecordBytes: Int = 32 << 20

  @Option(
    help: ArgumentHelp(
      "A root certificate to check raw receipts' signatures against (PEM or DER); repeat for several.",
      valueName: "cert"))
  var receiptRoot: [String] = []

  @Flag(
    help: ArgumentHelp(
      "Store each response's latest_receipt (the customer's whole base64 receipt, which nothing "
        + "reads) instead of replacing it with \"<removed>\"."))
  var keepLatestReceipt = false

  @Flag(help: "Print the summary as JSON on standard output.")
  var json = false

  mutating func validate() throws {
    guard maxRecordBytes >= 1024 else {
      throw ValidationError("--max-record-bytes must be at least 1024, not \(maxRecordBytes)")
    }
  }

  func run() async throws {
    // One run per store: a second process refuses at once (exit 75) or, with --wait, waits.
    let lock = try store.lock(command: "ingest")
    defer { lock.release() }
    // A path that is not there is a mistake on the command line, not a record to quarantine.
    try InputChecks.readable(paths, flag: "ingest", pipes: true)
    let catalog = try catalog.map(CatalogLoader.load)
    let database = try store.openStore()
    let options = IngestOptions(
      paths: paths,
      reader: .init(
        maximumRecordBytes: maxRecordBytes, forcedFormat: format,
        receiptVerifier: try ReceiptRoots.verifier(paths: receiptRoot)),
      catalog: catalog, asOf: asOf, keepsLatestReceipt: keepLatestReceipt)
    let stage = IngestStage(
      store: database, options: options, now: WallClock.now, observer: TerminalProgressObserver())
    let summary = try await StopSignals.run { try stage.run() }
    if json {
      print(IngestSummaryRenderer.json(summary, style: .pretty))
    } else {
      print(IngestSummaryRenderer.text(summary, storePath: store.path()), terminator: "")
    }
    if !summary.isClean {
      var parts: [String] = []
      if summary.quarantined > 0 { parts.append("\(summary.quarantined) input(s) quarantined") }
      if summary.partial > 0 {
        parts.append("\(summary.partial) record(s) partial (fields set aside)")
      }
      throw ToolFailure.incomplete(parts.joined(separator: ", ") + "; see the summary above.")
    }
  }
}

extension LegacyInputFormat: ExpressibleByArgument {}
