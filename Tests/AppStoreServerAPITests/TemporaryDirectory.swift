import Foundation
import TestDirectories

extension TemporaryDirectory {
  /// Makes a new, empty directory named for this target's tests (`AppStoreServerAPITests-<UUID>`).
  ///
  /// - Returns: its path.
  static func make() throws -> String {
    try makePath(prefix: "AppStoreServerAPITests")
  }
}
