import ArgumentParsing
import Foundation
import MigrationPipeline
import MigrationReports
import MigrationStore

/// `receipt-migrate diff A B`: what changed between two runs, account by account, read-only.
struct DiffCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "diff",
    abstract: "Compare two runs' classifications account by account, without recording a run.",
    discussion: """
      Each side is a run id of the store (see receipt-migrate runs) or a report folder (its \
      run.json and discrepancies.ndjson, from any store or version of the tool). Per account: \
      new findings, resolved, and other categories, for the primary category and the team \
      table's, with the evidence lines that changed; and how the two runs' inputs differ. \
      Nothing is written to the store and no baseline changes. Exits 0, or 3 when a side \
      cannot be read.
      """
  )

  @Argument(help: ArgumentHelp("The earlier run: a run id, or a report folder.", valueName: "A"))
  var before: String

  @Argument(help: ArgumentHelp("The later run: a run id, or a report folder.", valueName: "B"))
  var after: String

  @Flag(help: "Print the diff as JSON (schema_version, before, after, changes[]).")
  var json = false

  @Option(
    help: ArgumentHelp("Also write the diff as an HTML page to this file.", valueName: "file"))
  var html: String?

  @Option(help: ArgumentHelp("List at most this many accounts on the terminal.", valueName: "n"))
  var limit = 50

  @OptionGroup var store: StoreOptions

  func validate() throws {
    if limit < 1 { throw ValidationError("--limit must be 1 or more, not \(limit)") }
  }

  func run() async throws {
    var database: MigrationStore?
    defer { try? database?.close() }
    func side(_ argument: String) throws -> RunDiffSide {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory),
        isDirectory.boolValue
      {
        return try RunDiffSide.reportFolder(URL(fileURLWithPath: argument))
      }
      if database == nil { database = try store.openStore(readOnly: true) }
      return try RunDiffSide.storedRun(argument, store: database!)
    }
    let diff: RunDiff
    do {
      diff = try RunDiffer.diff(try side(before), try side(after))
    } catch let failure as RunDiffSide.Failure {
      throw ToolFailure.configuration(failure.description)
    } catch let failure as RunDiffer.Failure {
      throw ToolFailure.configuration(failure.description)
    }
    if let html {
      do {
        try Data(RunDiffHTMLRenderer.render(diff).utf8).write(to: URL(fileURLWithPath: html))
      } catch {
        throw ToolFailure.configuration("the HTML page \(html) cannot be written: \(error)")
      }
    }
    if json {
      FileHandle.standardOutput.write(Data(RunDiffJSONRenderer.render(diff)))
    } else {
      print(RunDiffTextRenderer.render(diff, limit: limit), terminator: "")
      if let html { print("HTML: \(html)") }
    }
  }
}
