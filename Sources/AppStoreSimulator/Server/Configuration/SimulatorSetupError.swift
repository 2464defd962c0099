import Foundation

/// Why the simulator's world directory or signing material cannot be used.
public struct SimulatorSetupError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What failed, why, and what to do next.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameter message: what failed, why, and what to do next.
  public init(_ message: String) {
    self.message = message
  }

  /// The message.
  public var description: String { message }

  /// Writes a whole file with the given permissions, replacing it.
  static func writing(_ bytes: [UInt8], to path: String, permissions: Int)
    throws(SimulatorSetupError)
  {
    let created = FileManager.default.createFile(
      atPath: path, contents: Data(bytes), attributes: [.posixPermissions: permissions])
    guard created else {
      throw SimulatorSetupError(
        "cannot write \(path); check that its directory exists and is writable")
    }
  }

  /// Reads a whole file.
  static func reading(_ path: String) throws(SimulatorSetupError) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw SimulatorSetupError("cannot read \(path); check that it exists and is readable")
    }
    return [UInt8](data)
  }
}
