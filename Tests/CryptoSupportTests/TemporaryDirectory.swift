import Foundation

/// Temporary directories for this target's tests: `<prefix>-<UUID>` in the system's temporary
/// directory, so that one left behind can be traced to the tests that made it.
///
/// Each is removed when its test ends, pass or fail: write
/// `defer { TemporaryDirectory.remove(directory) }` on the line after making it.
enum TemporaryDirectory {
  /// Makes a new, empty directory and returns its path.
  static func make(prefix: String = "CryptoSupportTests") throws -> String {
    let path = NSTemporaryDirectory() + prefix + "-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// Removes a directory and everything in it; one already gone is not an error, one that
  /// cannot be removed is named on standard error.
  static func remove(_ path: String) {
    guard FileManager.default.fileExists(atPath: path) else { return }
    do {
      try FileManager.default.removeItem(atPath: path)
    } catch {
      FileHandle.standardError.write(
        Data("warning: could not remove the test directory \(path): \(error)\n".utf8))
    }
  }
}
