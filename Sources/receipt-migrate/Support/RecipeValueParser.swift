import ArgumentParsing
import Foundation
import MigrationPipeline

/// Checks a value for a recipe setting as its flag would check it, and makes paths absolute.
enum RecipeValueParser {
  /// The value for a setting.
  ///
  /// - Parameters:
  ///   - arguments: the value's arguments (several only for `legacy`).
  ///   - setting: the setting.
  /// - Returns: the value to store.
  /// - Throws: `ValidationError` (exit 2) for a bad value, ``ToolFailure/configuration(_:)``
  ///   (exit 3) for a path that cannot be read.
  static func parse(_ arguments: [String], for setting: RecipeSetting) throws -> RecipeValue {
    guard !arguments.isEmpty else {
      throw ValidationError("recipe set \(setting.rawValue) needs a value")
    }
    guard arguments.count == 1 || setting.kind == .paths else {
      throw ValidationError("recipe set \(setting.rawValue) takes one value")
    }
    let text = arguments[0]
    switch setting.kind {
    case .paths:
      try InputChecks.readable(arguments, flag: setting.flag)
      return .list(arguments.map(MigrationRunner.absolutePath))
    case .path:
      // Files read by runs must exist; folders and files written by runs need not yet.
      if setting != .reports && setting != .metricsFile {
        try InputChecks.readable([text], flag: setting.flag)
      }
      return .text(MigrationRunner.absolutePath(text))
    case .count:
      guard let number = Int(text), number >= 0 else {
        throw ValidationError("\(setting.flag) must be a whole number, 0 or more, not '\(text)'")
      }
      return .number(number)
    case .duration:
      _ = try DurationArgument.milliseconds(text, flag: setting.flag)
      return .text(text)
    case .flag:
      switch text.lowercased() {
      case "on", "true", "yes", "1": return .flag(true)
      case "off", "false", "no", "0": return .flag(false)
      default: throw ValidationError("\(setting.flag) is on or off, not '\(text)'")
      }
    case .text:
      switch setting {
      case .failOn:
        _ = try ComparisonOptions.policy(failOn: text, threshold: nil, origin: setting.flag)
      case .deriveTokens:
        do {
          _ = try AccountTokenSource.deriving(namespace: text)
        } catch {
          throw ValidationError("\(setting.flag): \(error)")
        }
      case .rateShare:
        _ = try RateShareFlag.parse(text, default: 1)
      case .webhook:
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""),
          url.host != nil
        else {
          throw ValidationError("\(setting.flag) must be an http or https URL")
        }
      default:
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
          throw ValidationError("\(setting.flag) cannot be empty")
        }
      }
      return .text(text)
    }
  }
}
