import Foundation
import Testing

/// A fresh directory for one test's files, removed when the test's closure returns.
enum TemporaryDirectory {
  /// Calls `body` with the path of a new, empty directory, `<prefix>-<UUID>` in the system's
  /// temporary directory, and removes the directory afterwards, whether `body` returns or throws.
  static func with<Result>(
    prefix: String = "MigrationStoreTests", _ body: (String) throws -> Result
  ) throws -> Result {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer {
      do {
        try FileManager.default.removeItem(atPath: path)
      } catch {
        Issue.record(error, "could not remove the test directory \(path)")
      }
    }
    return try body(path)
  }

  /// The permission bits of a file or directory, such as `0o600`.
  static func mode(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    let permissions = try #require(attributes[.posixPermissions] as? NSNumber)
    return permissions.intValue & 0o777
  }
}
