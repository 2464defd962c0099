import Foundation
import LegacyReceipts

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
  /// A device or a socket (`/dev/zero`, `/dev/urandom`, a terminal) is refused with its kind, a
  /// loop of symbolic links as such. A pipe (a named one, or `<(…)` process substitution) is
  /// accepted where the file is read once, as it arrives, and refused where it is read twice.
  ///
  /// - Parameters:
  ///   - paths: the paths, files or folders.
  ///   - flag: how the user named them, such as `--legacy`.
  ///   - pipes: whether a pipe can be read: legacy inputs are read once; the catalogue, the
  ///     team table and the token mapping are read twice (their header is checked before the
  ///     run).
  static func readable(_ paths: [String], flag: String, pipes: Bool = false) throws {
    for path in paths {
      let kind = FileKind(followingLinksAt: path)
      if let refusal = kind.refusal {
        throw ToolFailure.configuration("\(flag) \(path): \(refusal)")
      }
      if kind == .pipe && !pipes {
        throw ToolFailure.configuration(
          "\(flag) \(path): a pipe, which can be read only once, and this file is read twice "
            + "(its header is checked before the run); save it to a file and name that")
      }
      guard access(path, kind == .directory ? R_OK | X_OK : R_OK) == 0 else {
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
