import ArgumentParsing
import Benchmarks
import Foundation
import Terminal

/// `receipt-migrate bench scale`.
struct ScaleBenchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scale",
    abstract: "How compare and report grow with the accounts: peak memory, accounts/s, seconds.",
    discussion: """
      Builds a store of N accounts without HTTP: the world is generated in parts, each part's \
      legacy files are ingested and its customers backfilled by the real stages and client \
      against the simulator answering in this process (every signed value verified and \
      stored). Then runs receipt-migrate compare and receipt-migrate report on it, each in a \
      child process, and prints their time and peak memory beside the targets. See \
      Documentation/Performance.md.
      """
  )

  @Option(help: "How many team accounts the store holds.")
  var accounts: Int = 100_000

  @Option(help: "The seed of every part of the world.")
  var seed: UInt64 = 1

  @Option(help: "The most accounts generated and backfilled at once while building.")
  var part: Int = 20_000

  @Option(
    help: ArgumentHelp(
      "Use and keep this scratch directory; a store built there before for the same accounts "
        + "and seed is used again.", valueName: "dir"))
  var keep: String?

  @Flag(
    help:
      "Print {\"accounts\", \"peak_memory_mb\", \"compare_accounts_per_second\", \"report_seconds\"}."
  )
  var json = false

  @Flag(
    help: ArgumentHelp(
      "Only build the store in the --keep directory and exit (what the benchmark runs in a "
        + "child process, so that it stays small itself)."))
  var buildOnly = false

  mutating func validate() throws {
    guard accounts > 0 else { throw ValidationError("--accounts must be positive") }
    guard part > 0 else { throw ValidationError("--part must be positive") }
    guard !buildOnly || keep != nil else {
      throw ValidationError("--build-only needs --keep DIR: the store it builds is kept there")
    }
  }

  func run() async throws {
    var settings = ScaleBenchmark.Settings(executable: ExecutablePath.current)
    settings.accounts = accounts
    settings.seed = seed
    settings.part = part
    settings.directory = keep.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    settings.buildOnly = buildOnly
    let report = try await ScaleBenchmark.run(settings) {
      StandardError.write("[bench scale] \($0)\n")
    }
    print(json ? report.json : report.text)
  }
}
