import Foundation
import GoldenFiles
import Testing

extension Golden {
  /// This target's golden files, under `Fixtures/golden/` in the source tree.
  static let reports = Golden(
    directory: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/golden"),
    target: "MigrationReportsTests")

  /// Checks `bytes` against the golden file at `relativePath`; see ``Golden/check(_:against:sourceLocation:)``.
  static func check(
    _ bytes: [UInt8], against relativePath: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try reports.check(bytes, against: relativePath, sourceLocation: sourceLocation)
  }
}
