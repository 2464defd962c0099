import Foundation
import Testing

/// Committed golden files under `Fixtures/golden/`, and the way to refresh them.
///
/// Run the tests with `UPDATE_GOLDEN=1` to write the current output over the golden files in
/// the source tree (not the copy in the test bundle), then review the diff with `git diff`
/// before committing it:
///
/// ```sh
/// UPDATE_GOLDEN=1 swift test --filter MigrationReportsTests
/// ```
enum Golden {
  static var isUpdating: Bool { ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" }

  /// The golden folder in the source tree.
  static var sourceDirectory: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/golden")
  }

  /// Checks `bytes` against the golden file at `relativePath`, or rewrites it when updating.
  static func check(
    _ bytes: [UInt8], against relativePath: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    if isUpdating {
      let url = sourceDirectory.appendingPathComponent(relativePath)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(bytes).write(to: url)
      print("Updated golden file \(relativePath)")
      return
    }
    let directory = try #require(
      Bundle.module.url(forResource: "Fixtures", withExtension: nil),
      "the Fixtures resource is missing",
      sourceLocation: sourceLocation)
    let url = directory.appendingPathComponent("golden").appendingPathComponent(relativePath)
    let expected = try #require(
      FileManager.default.contents(atPath: url.path),
      "no golden file \(relativePath); run UPDATE_GOLDEN=1 swift test --filter MigrationReportsTests",
      sourceLocation: sourceLocation)
    let actual = String(decoding: bytes, as: UTF8.self)
    let golden = String(decoding: expected, as: UTF8.self)
    if actual != golden {
      Issue.record(
        Comment(
          rawValue:
            "\(relativePath) differs from its golden file; first difference: \(firstDifference(actual, golden)). If the change is intended, run UPDATE_GOLDEN=1 swift test --filter MigrationReportsTests and review git diff."
        ),
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
