import Foundation
import JSON
import MigrationReports
import MigrationStore

/// One side of `receipt-migrate diff`: a run recorded in a store, or a report folder written by
/// any version of the tool.
///
/// Both give the same thing: the run's facts and, per account, the classification the run made
/// (its categories, cause and explanation) — from the store's `comparisons` rows, or from the
/// folder's `discrepancies.ndjson`. Nothing is computed again and nothing is written.
public struct RunDiffSide {
  /// Why a side cannot be read, naming the input and the reason.
  public struct Failure: Error, CustomStringConvertible {
    /// The message.
    public var description: String
  }

  /// The side's facts.
  public let facts: DiffSideFacts
  private let source: Source

  private enum Source {
    case store(MigrationStore, runId: String)
    case folder(URL)
  }

  /// A run recorded in a store.
  ///
  /// - Parameters:
  ///   - runId: the run's id.
  ///   - store: the store, open read-only.
  /// - Throws: ``Failure`` when the store has no finished run with that id.
  public static func storedRun(_ runId: String, store: MigrationStore) throws -> RunDiffSide {
    let run: StoredRun
    do {
      run = try StoredRun.load(from: store, id: runId)
    } catch let failure as RunRecipe.Failure {
      throw Failure(description: failure.description)
    }
    let summary = run.summary
    var inputs: [String: String] = [:]
    for input in summary.usedInputs where DiffSideFacts.classifyingInputs.contains(input.name) {
      inputs[input.name] = input.value
    }
    let facts = DiffSideFacts(
      source: store.path, runId: summary.runId,
      toolVersion: summary.toolVersion, asOf: summary.asOf.iso8601, inputs: inputs,
      comparedTable: summary.teamTableFile != nil, redacted: false)
    return RunDiffSide(facts: facts, source: .store(store, runId: runId))
  }

  /// A report folder: its `run.json` and `discrepancies.ndjson`.
  ///
  /// - Parameter folder: the folder.
  /// - Throws: ``Failure`` naming the file and what is wrong with it.
  public static func reportFolder(_ folder: URL) throws -> RunDiffSide {
    let runFile = folder.appendingPathComponent("run.json")
    guard let bytes = FileManager.default.contents(atPath: runFile.path) else {
      throw Failure(description: "\(runFile.path) cannot be read: not a report folder")
    }
    let run: JSONValue
    do {
      run = try JSONValue(parsing: bytes)
    } catch {
      throw Failure(description: "\(runFile.path) is not JSON: \(error)")
    }
    guard let runId = run["run_id"]?.stringValue, let asOf = run["as_of"]?.stringValue else {
      throw Failure(description: "\(runFile.path) has no run_id or as_of: not a run.json")
    }
    var inputs: [String: String] = [:]
    if case .array(let used)? = run["used_inputs"] {
      for input in used {
        guard let name = input["name"]?.stringValue, let value = input["value"]?.stringValue,
          DiffSideFacts.classifyingInputs.contains(name)
        else { continue }
        inputs[name] = value
      }
    }
    let facts = DiffSideFacts(
      source: folder.path, runId: runId,
      toolVersion: run["tool_version"]?.stringValue ?? "unknown", asOf: asOf, inputs: inputs,
      comparedTable: run["team_table"]?["compared"]?.boolValue ?? false,
      redacted: run["redaction"]?["redacted"]?.boolValue ?? false)
    return RunDiffSide(facts: facts, source: .folder(folder))
  }

  /// Calls `body` with every account the side classified, each once.
  ///
  /// - Parameter body: receives each account's classification.
  /// - Throws: ``Failure`` naming the file and line of a record that cannot be read;
  ///   `SQLiteError`; what `body` throws.
  public func forEachClassification(_ body: (ComparisonRow) throws -> Void) throws {
    switch source {
    case .store(let store, let runId):
      try store.forEachComparison(runId: runId, body)
    case .folder(let folder):
      try Self.forEachRecord(in: folder.appendingPathComponent("discrepancies.ndjson"), body)
    }
  }

  /// Reads `discrepancies.ndjson` a block at a time.
  private static func forEachRecord(in file: URL, _ body: (ComparisonRow) throws -> Void) throws {
    guard let handle = FileHandle(forReadingAtPath: file.path) else {
      throw Failure(description: "\(file.path) cannot be read: not a report folder")
    }
    defer { try? handle.close() }
    var lines = LineSplitter()
    var number = 0
    func read(_ line: String) throws {
      number += 1
      // A blank line (spaces, a tab) is no record, as in every other reader of line files.
      guard line.contains(where: { !$0.isWhitespace }) else { return }
      try body(try record(line, file: file, line: number))
    }
    while let block = try handle.read(upToCount: 1 << 20), !block.isEmpty {
      for line in lines.feed(block) { try read(line) }
    }
    if let last = lines.finish() { try read(last) }
  }

  /// One `discrepancies.ndjson` record's classification.
  private static func record(_ text: String, file: URL, line: Int) throws -> ComparisonRow {
    let value: JSONValue
    do {
      value = try JSONValue(parsing: Array(text.utf8))
    } catch {
      throw Failure(description: "\(file.path) line \(line) is not JSON: \(error)")
    }
    guard let accountId = value["account_id"]?.stringValue,
      let category = value["category"]?.stringValue
    else {
      throw Failure(
        description: "\(file.path) line \(line) has no account_id or category: not a "
          + "discrepancies.ndjson record")
    }
    return ComparisonRow(
      accountId: accountId, category: category,
      tableCategory: value["table_category"]?.stringValue, cause: value["cause"]?.stringValue,
      explanation: value["explanation"]?.stringValue ?? "")
  }
}
