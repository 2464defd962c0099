import ArgumentParsing
import Benchmarks
import Foundation
import Terminal

/// `receipt-migrate bench verify`.
struct VerifyBenchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "verify",
    abstract:
      "Verified-and-decoded signed transactions per second on one core, against Apple's Python library.",
    discussion: """
      Pin it to one core for the per-core figure: taskset -c 1 receipt-migrate bench verify. The \
      Python baseline installs app-store-server-library into a throwaway virtual environment \
      (needs python3 and PyPI); without them it is skipped and says so.
      """
  )

  @Option(help: "How many distinct signed transactions.")
  var count: Int = 20_000

  @Option(help: "How many timed passes over them.")
  var passes: Int = 5

  @Option(help: ArgumentHelp("The Python baseline script.", valueName: "path"))
  var pythonScript: String = "Scripts/bench-verify-python.sh"

  @Flag(help: "Skip the Python baseline.")
  var noPython = false

  mutating func validate() throws {
    guard count > 0, passes > 0 else {
      throw ValidationError("--count and --passes must be positive")
    }
  }

  func run() async throws {
    let script =
      noPython || !FileManager.default.fileExists(atPath: pythonScript) ? nil : pythonScript
    if script == nil && !noPython {
      StandardError.write(
        "[bench verify] \(pythonScript) not found (run from the repository root); skipping the Python baseline\n"
      )
    }
    let report = try VerifyBenchmark.run(count: count, passes: passes, pythonScript: script)
    print(report.text)
  }
}
