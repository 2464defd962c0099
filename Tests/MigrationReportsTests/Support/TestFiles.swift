import Foundation

/// File checks for tests that write reports (their folders: ``TemporaryDirectory``).
enum TestFiles {
  /// The permission bits of a file or folder.
  static func mode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }
}
