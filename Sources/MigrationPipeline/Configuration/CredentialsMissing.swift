import Foundation

/// A command that talks to the App Store found no credentials, and was not asked to use the
/// built-in simulator instead: it names every setting that is missing (variable and file
/// member) and the two ways on.
public struct CredentialsMissing: Error, CustomStringConvertible, Sendable {
  /// The command, such as `audit` or `link --apply`.
  public var command: String
  /// The configuration file looked at.
  public var file: String
  /// Whether that file exists.
  public var fileExists: Bool
  /// Each missing setting: its variable and its member in the file.
  public var missing: [(variable: String, member: String)]

  /// Finds what is missing.
  ///
  /// - Parameters:
  ///   - command: the command, for the message.
  ///   - file: the `--config` file, or `nil` for the default one.
  ///   - environment: the process environment.
  public init(command: String, file: String?, environment: [String: String]) {
    self.command = command
    self.file = file ?? ToolConfiguration.defaultPath
    fileExists = FileManager.default.fileExists(atPath: self.file)
    missing = ToolConfiguration.missingSettings(file: file, environment: environment)
  }

  /// What is missing and what to do.
  public var description: String {
    let variables = missing.map(\.variable)
    let members = missing.map(\.member)
    let location =
      fileExists
      ? "in the environment, nor as \(Self.list(members)) in \(file)"
      : "in the environment, and there is no configuration file (\(file) does not exist; "
        + "its members would be \(Self.list(members)))"
    return
      "\(command) talks to the App Store, and no App Store credentials are configured: "
      + "\(Self.list(variables)) \(missing.count == 1 ? "is" : "are") not set \(location). "
      + "Set them to talk to Apple, or ask for the built-in simulator explicitly with "
      + "--simulated (the sample world, Legacy/sample) or --world DIR; it never stands in for "
      + "Apple unasked"
  }

  static func list(_ names: [String]) -> String {
    guard names.count > 1 else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
  }
}
