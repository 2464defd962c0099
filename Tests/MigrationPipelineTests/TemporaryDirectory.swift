import Foundation
import TestDirectories

extension TemporaryDirectory {
  /// Makes a new, empty directory named for this target's tests (`pipeline-tests-<UUID>`).
  ///
  /// - Returns: the directory.
  static func make() throws -> URL {
    try make(prefix: "pipeline-tests")
  }
}
