import Foundation

/// Temporary directories for this target's tests: `<prefix>-<UUID>` in the system's temporary
/// directory, so that one left behind can be traced to the tests that made it.
///
/// Each is removed when its test ends, pass or fail: write
/// `defer { TemporaryDirectory.remove(directory) }` on the line after making it.
enum TemporaryDirectory {
  /// Makes a new, empty directory.
  static func make(prefix: String = "pipeline-tests") throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  /// Removes a directory and everything in it; one already gone is not an error, one that
  /// cannot be removed is named on standard error.
  static func remove(_ directory: URL) {
    guard FileManager.default.fileExists(atPath: directory.path) else { return }
    do {
      try FileManager.default.removeItem(at: directory)
    } catch {
      FileHandle.standardError.write(
        Data("warning: could not remove the test directory \(directory.path): \(error)\n".utf8))
    }
  }
}
