import ArgumentParsing
import Benchmarks
import Foundation
import Terminal

/// `receipt-migrate bench ingest`.
struct IngestBenchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ingest",
    abstract: "Parse, evaluate and ingest a synthetic corpus; compare with python3 json.loads."
  )

  @Option(help: "The corpus size in megabytes.")
  var megabytes: Int = 256

  @Option(
    help: ArgumentHelp("A scratch directory for the corpus and the database.", valueName: "path"))
  var directory: String = FileManager.default.temporaryDirectory.appendingPathComponent(
    "receipt-migrate-bench"
  ).path

  @Option(name: .customLong("repeat"), help: "How often each phase runs; the best run is reported.")
  var repetitions: Int = 3

  @Flag(help: "Keep the corpus and the database afterwards.")
  var keep = false

  mutating func validate() throws {
    guard megabytes > 0 else { throw ValidationError("--megabytes must be positive") }
    guard repetitions > 0 else { throw ValidationError("--repeat must be positive") }
  }

  func run() async throws {
    var benchmark = IngestBenchmark(
      corpusBytes: Int64(megabytes) * 1_000_000, executable: ExecutablePath.current,
      workingDirectory: directory, keepFiles: keep)
    benchmark.repetitions = repetitions
    print(try benchmark.run(log: { StandardError.write("[bench ingest] \($0)\n") }))
  }
}
