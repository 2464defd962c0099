import Foundation

/// Working directories for tests: `<prefix>-<UUID>` in the system's temporary directory, the
/// prefix naming the tests so that one left behind can be traced to them.
///
/// Each is removed when its test ends, pass or fail: write
/// `defer { TemporaryDirectory.remove(directory) }` on the line after making it, before starting
/// anything (a server, a process) that works in it, so that their own `defer`s stop them first.
public enum TemporaryDirectory {
  /// Makes a new directory and fills it; removes it again when filling it fails.
  ///
  /// - Parameters:
  ///   - prefix: the start of the directory's name.
  ///   - fill: puts what the test starts from into the new directory (nothing by default).
  /// - Returns: the directory.
  public static func make(prefix: String, fill: (URL) throws -> Void = { _ in }) throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    do {
      try fill(directory)
    } catch {
      remove(directory)
      throw error
    }
    return directory
  }

  /// Makes a new, empty directory, as ``make(prefix:fill:)`` does, for tests that work with
  /// paths.
  ///
  /// - Parameter prefix: the start of the directory's name.
  /// - Returns: the directory's path.
  public static func makePath(prefix: String) throws -> String {
    try make(prefix: prefix).path
  }

  /// Removes a directory and everything in it; one already gone is not an error, one that
  /// cannot be removed is named on standard error.
  ///
  /// - Parameter directory: the directory.
  public static func remove(_ directory: URL) {
    guard FileManager.default.fileExists(atPath: directory.path) else { return }
    do {
      try FileManager.default.removeItem(at: directory)
    } catch {
      FileHandle.standardError.write(
        Data("warning: could not remove the test directory \(directory.path): \(error)\n".utf8))
    }
  }

  /// Removes a directory given by its path, as the URL form does.
  ///
  /// - Parameter path: the directory's path.
  public static func remove(_ path: String) {
    remove(URL(fileURLWithPath: path))
  }
}
