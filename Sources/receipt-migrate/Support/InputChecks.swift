import Foundation

/// Checks, before any work starts, that the files a command was told to read can be read.
///
/// A run that discovers a missing input only when it reaches it has already spent its
/// requests (a team table is read after the whole backfill), and a missing `--legacy` path read
/// as a record would be quarantined in the store for good. Failing at once, with the flag and
/// the reason, costs nothing.
enum InputChecks {
  /// Throws ``ToolFailure/configuration(_:)`` (exit 3) for the first path that does not exist
  /// or cannot be read.
  ///
  /// - Parameters:
  ///   - paths: the paths, files or folders.
  ///   - flag: how the user named them, such as `--legacy`.
  static func readable(_ paths: [String], flag: String) throws {
    for path in paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw ToolFailure.configuration("\(flag) \(path): no such file or folder")
      }
      guard access(path, isDirectory.boolValue ? R_OK | X_OK : R_OK) == 0 else {
        throw ToolFailure.configuration(
          "\(flag) \(path): cannot be read (\(String(cString: strerror(errno))))")
      }
    }
  }

  /// Checks the catalogue and the team table a comparison was given, when given.
  static func comparisonFiles(_ comparison: ComparisonOptions) throws {
    try readable(comparison.catalog.map { [$0] } ?? [], flag: "--catalog")
    try readable(comparison.currentEntitlements.map { [$0] } ?? [], flag: "--current-entitlements")
  }
}
