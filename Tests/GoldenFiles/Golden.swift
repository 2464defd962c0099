import Foundation
import Testing

/// Committed golden files, and the way to refresh them — shared by the test targets that
/// compare output byte for byte.
///
/// Each target keeps its golden files in the source tree (read from there, not from a test
/// bundle, so a fresh clone is all a run needs). Run the tests with `UPDATE_GOLDEN=1` to write
/// the current output over them, then review the diff with `git diff` before committing it:
///
/// ```sh
/// UPDATE_GOLDEN=1 swift test --filter MigrationReportsTests
/// ```
public struct Golden: Sendable {
  /// The folder holding this target's golden files.
  public let directory: URL
  /// The test target, named in the message that says how to refresh the files.
  public let target: String

  /// Golden files in `directory`.
  ///
  /// - Parameters:
  ///   - directory: the folder in the source tree.
  ///   - target: the test target's name, for messages.
  public init(directory: URL, target: String) {
    self.directory = directory
    self.target = target
  }

  /// Whether this run rewrites the golden files (`UPDATE_GOLDEN=1`).
  public static var isUpdating: Bool {
    ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1"
  }

  /// Checks `bytes` against the golden file at `relativePath`, or rewrites it when updating.
  ///
  /// - Parameters:
  ///   - bytes: the output.
  ///   - relativePath: the golden file, relative to ``directory``.
  ///   - sourceLocation: where a difference is reported.
  /// - Throws: when the golden file is missing.
  public func check(
    _ bytes: [UInt8], against relativePath: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let url = directory.appendingPathComponent(relativePath)
    if Self.isUpdating {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(bytes).write(to: url)
      print("Updated golden file \(relativePath)")
      return
    }
    let refresh = "UPDATE_GOLDEN=1 swift test --filter \(target)"
    let expected = try #require(
      FileManager.default.contents(atPath: url.path),
      "no golden file \(relativePath); run \(refresh)", sourceLocation: sourceLocation)
    let actual = String(decoding: bytes, as: UTF8.self)
    let golden = String(decoding: expected, as: UTF8.self)
    if actual != golden {
      Issue.record(
        Comment(
          rawValue:
            "\(relativePath) differs from its golden file; first difference: "
            + "\(Self.firstDifference(actual, golden)). If the change is intended, run "
            + "\(refresh) and review git diff."),
        sourceLocation: sourceLocation)
    }
  }

  private static func firstDifference(_ actual: String, _ golden: String) -> String {
    let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
    let goldenLines = golden.split(separator: "\n", omittingEmptySubsequences: false)
    for index in 0..<max(actualLines.count, goldenLines.count) {
      let lhs = index < actualLines.count ? String(actualLines[index]) : "<end of file>"
      let rhs = index < goldenLines.count ? String(goldenLines[index]) : "<end of file>"
      if lhs != rhs {
        return "line \(index + 1)\n  actual: \(lhs.prefix(300))\n  golden: \(rhs.prefix(300))"
      }
    }
    return "none"
  }
}
