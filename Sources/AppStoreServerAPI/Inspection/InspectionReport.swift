/// What a command-line inspection prints and how it exits.
public struct InspectionReport: Sendable, Hashable {
  /// The text to print on standard output.
  public var text: String

  /// The process exit status: 0 for success; otherwise as the command documents.
  public var exitStatus: Int32

  /// A report from its parts.
  ///
  /// - Parameters:
  ///   - text: The text to print.
  ///   - exitStatus: The exit status.
  public init(text: String, exitStatus: Int32) {
    self.text = text
    self.exitStatus = exitStatus
  }
}
