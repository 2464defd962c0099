import AppStoreServerAPI
import Foundation
import JSON

/// Reads the App Store configuration from a JSON file and the environment (the environment wins
/// field by field), and decides between Apple and the embedded simulator.
///
/// The file (`--config FILE`, or `.receipt-migrate/config.json` when it exists):
///
/// ```json
/// {"issuer_id": "…", "key_id": "…", "private_key_path": "AuthKey_ABC123.p8",
///  "bundle_id": "com.example.app", "app_apple_id": 1234567890,
///  "environment": "auto", "root_certificates": ["AppleRootCA-G3.cer"]}
/// ```
///
/// Each member has an environment variable: `ASC_ISSUER_ID`, `ASC_KEY_ID`,
/// `ASC_PRIVATE_KEY_PATH` or `ASC_PRIVATE_KEY` (member `private_key`, the key's PEM text),
/// `APP_BUNDLE_ID`, `APP_APPLE_ID`, `APP_STORE_ENVIRONMENT`,
/// `APP_STORE_ROOT_CERTIFICATES` (`:`-separated), and for tests against a simulator
/// `APP_STORE_PRODUCTION_URL` / `APP_STORE_SANDBOX_URL`.
public enum ToolConfiguration {
  /// The default configuration file, relative to the working directory.
  public static let defaultPath = ".receipt-migrate/config.json"

  /// The file members and the variables they stand for.
  static let members: [(member: String, variable: String)] = [
    ("issuer_id", "ASC_ISSUER_ID"), ("key_id", "ASC_KEY_ID"),
    ("private_key_path", "ASC_PRIVATE_KEY_PATH"), ("private_key", "ASC_PRIVATE_KEY"),
    ("bundle_id", "APP_BUNDLE_ID"), ("app_apple_id", "APP_APPLE_ID"),
    ("environment", "APP_STORE_ENVIRONMENT"),
    ("root_certificates", "APP_STORE_ROOT_CERTIFICATES"),
    ("production_url", "APP_STORE_PRODUCTION_URL"),
    ("sandbox_url", "APP_STORE_SANDBOX_URL"),
    ("clock", "APP_STORE_CLOCK"),
  ]

  /// The variables whose presence means "talk to Apple".
  static let credentialVariables = [
    "ASC_ISSUER_ID", "ASC_KEY_ID", "ASC_PRIVATE_KEY_PATH", "APP_BUNDLE_ID", "ASC_PRIVATE_KEY",
  ]

  /// The two ways of giving the App Store Connect key: one setting, so the environment's key
  /// (either way) replaces the file's (either way) as any other setting does.
  static let keyVariables = ["ASC_PRIVATE_KEY_PATH", "ASC_PRIVATE_KEY"]

  /// Decides which App Store to use.
  ///
  /// - Parameters:
  ///   - file: the configuration file named with `--config`, or `nil` for the default (used only
  ///     if it exists).
  ///   - environment: the process environment.
  /// - Returns: Apple with its settings, or the embedded simulator when no credential is set.
  /// - Throws: ``ConfigurationError`` for an unreadable or invalid file, or incomplete or
  ///   invalid credentials — the message names the setting and what to do.
  public static func resolve(file: String?, environment: [String: String])
    throws(ConfigurationError) -> AppStoreChoice
  {
    let home = environment["HOME"] ?? NSHomeDirectory()
    var variables = try read(file: file, home: home)
    // Which settings the file gave, so that errors name the member and the file, not a
    // variable the user never set.
    var fromFile = Set(variables.keys)
    if keyVariables.contains(where: { !(environment[$0] ?? "").isEmpty }) {
      for variable in keyVariables {
        variables[variable] = nil
        fromFile.remove(variable)
      }
    }
    for (_, variable) in members {
      if let value = environment[variable], !value.isEmpty {
        variables[variable] =
          pathMembers.contains(variable) ? expandingTilde(value, home: home) : value
        fromFile.remove(variable)
      }
    }
    guard credentialVariables.contains(where: { !(variables[$0] ?? "").isEmpty }) else {
      return .embeddedSimulator
    }
    do {
      return .apple(try LookupSettings.read(from: variables))
    } catch {
      var message = error.message
      let path = file ?? defaultPath
      for (member, variable) in members where fromFile.contains(variable) {
        message = replacingName(variable, in: message, with: "\(member) in \(path)")
      }
      throw ConfigurationError(message)
    }
  }

  /// `text` with each whole occurrence of the variable `name` replaced: `ASC_PRIVATE_KEY` is a
  /// prefix of `ASC_PRIVATE_KEY_PATH`, which must stay as it is.
  static func replacingName(_ name: String, in text: String, with replacement: String) -> String {
    var result = ""
    var rest = text[...]
    while let found = rest.range(of: name) {
      let next = rest[found.upperBound...].first
      let continues = next.map { $0 == "_" || $0.isLetter || $0.isNumber } ?? false
      result += rest[..<found.lowerBound]
      result += continues ? String(rest[found]) : replacement
      rest = rest[found.upperBound...]
    }
    return result + rest
  }

  /// The variables that hold file paths: in the file they are relative to the file's folder,
  /// and a leading `~` is the home folder wherever they come from.
  static let pathMembers: Set<String> = ["ASC_PRIVATE_KEY_PATH", "APP_STORE_ROOT_CERTIFICATES"]

  /// `path` with a leading `~/` (or a lone `~`) replaced by the home folder; each of a
  /// `:`-separated list is expanded.
  static func expandingTilde(_ paths: String, home: String) -> String {
    paths.split(separator: ":", omittingEmptySubsequences: false).map { part -> String in
      guard part == "~" || part.hasPrefix("~/") else { return String(part) }
      return home + part.dropFirst()
    }.joined(separator: ":")
  }

  /// `path` as named in the configuration file at `file`: `~` expanded, and a relative path
  /// taken from the file's folder, so a configuration works from any working directory.
  static func resolving(_ paths: String, relativeTo file: String, home: String) -> String {
    paths.split(separator: ":", omittingEmptySubsequences: false).map { part -> String in
      let expanded = expandingTilde(String(part), home: home)
      guard !expanded.hasPrefix("/"), !expanded.isEmpty else { return expanded }
      let folder = (file as NSString).deletingLastPathComponent
      return folder.isEmpty ? expanded : (folder as NSString).appendingPathComponent(expanded)
    }.joined(separator: ":")
  }

  /// Whether App Store credentials are configured at all (the default file exists, or a
  /// credential variable is set), without checking them: which store commands use by default.
  ///
  /// - Parameters:
  ///   - file: the configuration file named with `--config`, or `nil` for the default.
  ///   - environment: the process environment.
  /// - Returns: `true` when a run would talk to Apple.
  public static func credentialsConfigured(file: String?, environment: [String: String]) -> Bool {
    if credentialVariables.contains(where: { !(environment[$0] ?? "").isEmpty }) { return true }
    guard let variables = try? read(file: file) else { return file != nil }
    return credentialVariables.contains { !(variables[$0] ?? "").isEmpty }
  }

  /// The settings a run against Apple needs that neither the environment nor the file sets:
  /// the four credentials, the trusted roots, and the app's Apple id unless sandbox is
  /// configured. Each with its variable and its member in the file.
  ///
  /// - Parameters:
  ///   - file: the configuration file named with `--config`, or `nil` for the default.
  ///   - environment: the process environment.
  /// - Returns: the missing settings, in the order the README lists them.
  public static func missingSettings(file: String?, environment: [String: String])
    -> [(variable: String, member: String)]
  {
    // A file that cannot be read was already refused by `resolve`, naming the reason; here it
    // only decides which settings it provides.
    let fromFile = (try? read(file: file)) ?? [:]
    func value(_ variable: String) -> String? {
      [environment[variable], fromFile[variable]].compactMap { $0 }.first { !$0.isEmpty }
    }
    var required = [
      "ASC_ISSUER_ID", "ASC_KEY_ID", "ASC_PRIVATE_KEY_PATH", "APP_BUNDLE_ID",
      "APP_STORE_ROOT_CERTIFICATES",
    ]
    if value("APP_STORE_ENVIRONMENT")?.lowercased() != "sandbox" {
      required.insert("APP_APPLE_ID", at: 4)
    }
    // The key is one setting given either way: missing only when neither is set.
    let keyGiven = keyVariables.contains { value($0) != nil }
    return required.filter { $0 == "ASC_PRIVATE_KEY_PATH" ? !keyGiven : value($0) == nil }
      .compactMap { variable in
        guard variable != "ASC_PRIVATE_KEY_PATH" else {
          return ("ASC_PRIVATE_KEY_PATH (or ASC_PRIVATE_KEY)", "private_key_path (or private_key)")
        }
        return members.first { $0.variable == variable }.map { (variable, $0.member) }
      }
  }

  /// The file's members as variables.
  static func read(file: String?, home: String = NSHomeDirectory()) throws(ConfigurationError)
    -> [String: String]
  {
    let path = file ?? defaultPath
    guard FileManager.default.fileExists(atPath: path) else {
      if let file { throw ConfigurationError("the configuration file \(file) does not exist") }
      return [:]
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ConfigurationError(
        "the configuration file \(path) cannot be read; check its permissions")
    }
    let document: JSONValue
    do {
      document = try JSONValue(parsing: Array(data))
    } catch {
      throw ConfigurationError("the configuration file \(path) is not valid JSON: \(error)")
    }
    guard case .object(let fields) = document else {
      throw ConfigurationError("the configuration file \(path) must hold a JSON object")
    }
    var variables: [String: String] = [:]
    for field in fields {
      guard let variable = members.first(where: { $0.member == field.key })?.variable else {
        let known = members.map(\.member).joined(separator: ", ")
        throw ConfigurationError(
          "the configuration file \(path) has an unknown member \"\(field.key)\"; known: \(known)")
      }
      switch field.value {
      case .string(let text):
        variables[variable] =
          pathMembers.contains(variable) ? resolving(text, relativeTo: path, home: home) : text
      case .number(let text): variables[variable] = text
      case .array(let items):
        let paths = items.compactMap(\.stringValue)
        guard paths.count == items.count else {
          throw ConfigurationError("\(field.key) in \(path) must be a list of file paths")
        }
        variables[variable] =
          pathMembers.contains(variable)
          ? paths.map { resolving($0, relativeTo: path, home: home) }.joined(separator: ":")
          : paths.joined(separator: ":")
      case .null: continue
      default:
        throw ConfigurationError("\(field.key) in \(path) must be a string")
      }
    }
    return variables
  }
}
