import ApplesLibrary
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

  static let missingMessage = ApplesPythonLibrary.missingMessage

  /// Finds the virtual environment (or `RECEIPT_MIGRATE_CONFORMANCE_PYTHON`) and checks that it
  /// imports Apple's library; says loudly on standard error when it does not.
  static func locate() -> ConformanceHarness {
    ConformanceHarness(root: ApplesPythonLibrary.root, python: ApplesPythonLibrary.python)
  }

  /// Runs a program to its end and returns its exit status and standard output and error.
  static func run(_ executable: String, _ arguments: [String]) throws -> (
    status: Int32, output: String
  ) {
    try ApplesPythonLibrary.run(executable, arguments)
  }
}
