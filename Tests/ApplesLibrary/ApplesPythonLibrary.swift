import Foundation

/// Apple's official Python library, `app-store-server-library`, as the tests that let Apple's own
/// code judge this project's output run it: the Python of the virtual environment `Scripts/test`
/// prepares in `.venv-conformance/` (or `RECEIPT_MIGRATE_CONFORMANCE_PYTHON`), checked to import
/// the library.
public enum ApplesPythonLibrary {
  /// The repository root.
  public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// What a test that needs the library says when it is missing: skipped, never passed.
  public static let missingMessage =
    "SKIPPED: Apple's app-store-server-library is not installed in .venv-conformance/ (Scripts/test "
    + "installs it from PyPI; PyPI was unreachable or it was not run), so this was NOT checked "
    + "against Apple's own code"

  /// The Python that imports `appstoreserverlibrary`, or `nil` (said loudly on standard error,
  /// once).
  public static let python: String? = {
    let candidate =
      ProcessInfo.processInfo.environment["RECEIPT_MIGRATE_CONFORMANCE_PYTHON"]
      ?? root.appendingPathComponent(".venv-conformance/bin/python").path
    guard FileManager.default.isExecutableFile(atPath: candidate),
      (try? run(candidate, ["-c", "import appstoreserverlibrary"]).status) == 0
    else {
      FileHandle.standardError.write(Data(("\n*** \(missingMessage) ***\n\n").utf8))
      return nil
    }
    return candidate
  }()

  /// Runs a program to its end and returns its exit status and its standard output and error,
  /// interleaved.
  ///
  /// - Parameters:
  ///   - executable: the program.
  ///   - arguments: its arguments.
  /// - Returns: the status and the output.
  /// - Throws: when the program cannot be started.
  public static func run(_ executable: String, _ arguments: [String]) throws -> (
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
