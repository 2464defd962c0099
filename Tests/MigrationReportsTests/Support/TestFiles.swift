import Foundation

/// Temporary folders for tests that write reports.
enum TestFiles {
  /// A new, empty folder.
  static func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "MigrationReportsTests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// The permission bits of a file or folder.
  static func mode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }
}
