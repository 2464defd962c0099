import Foundation

/// Where Apple's library is: the Python of the virtual environment `Scripts/test` prepares.
struct ConformanceHarness: Sendable {
  /// The repository root.
  let root: URL
  /// The Python that can import `appstoreserverlibrary`, or `nil`.
  let python: String?
  /// The script that drives the simulator.
  var script: String {
    root.appendingPathComponent("Tests/AppStoreSimulatorTests/Conformance/apple_conformance.py")
      .path
  }

  static let missingMessage =
    "SKIPPED: Apple's app-store-server-library is not installed in .venv-conformance/ (Scripts/test "
    + "installs it from PyPI; PyPI was unreachable or it was not run), so the simulator was NOT "
    + "checked against Apple's own code"

  /// Finds the virtual environment (or `RECEIPT_MIGRATE_CONFORMANCE_PYTHON`) and checks that it
  /// imports Apple's library; says loudly on standard error when it does not.
  static func locate() -> ConformanceHarness {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let candidate =
      ProcessInfo.processInfo.environment["RECEIPT_MIGRATE_CONFORMANCE_PYTHON"]
      ?? root.appendingPathComponent(".venv-conformance/bin/python").path
    guard FileManager.default.isExecutableFile(atPath: candidate),
      (try? run(candidate, ["-c", "import appstoreserverlibrary"]).status) == 0
    else {
      FileHandle.standardError.write(Data(("\n*** \(missingMessage) ***\n\n").utf8))
      return ConformanceHarness(root: root, python: nil)
    }
    return ConformanceHarness(root: root, python: candidate)
  }

  /// Runs a program to its end and returns its exit status and standard output and error.
  static func run(_ executable: String, _ arguments: [String]) throws -> (
    status: Int32, output: String
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
  }
}
