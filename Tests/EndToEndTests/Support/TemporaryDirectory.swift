import Foundation

/// Removal of the end-to-end tests' directories: each test's run directory (see
/// ``EndToEnd/scratch()``) when the test ends, pass or fail, and the process's `end-to-end-<UUID>`
/// directory, which holds the worlds the tests share, when the process exits.
enum TemporaryDirectory {
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
