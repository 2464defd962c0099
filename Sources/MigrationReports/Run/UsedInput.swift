import JSON

/// One input or setting a run used, and where it came from: a flag of this command, the
/// store's recipe (what the store was first run with, or `recipe set`), or a default.
public struct UsedInput: Hashable, Sendable {
  /// Where a value came from.
  public enum Origin: String, Hashable, Sendable, CaseIterable {
    /// A flag of the command that made the run.
    case flag
    /// The store's recipe.
    case recipe
    /// The built-in simulator's world (its receipts, catalogue and table).
    case simulator
    /// The tool's default.
    case `default`
  }

  /// The setting's name, as `recipe set` names it (`catalog`, `current-entitlements`, …).
  public var name: String
  /// Its value, as shown to people (paths, a list, a number).
  public var value: String
  /// Where it came from.
  public var origin: Origin
  /// More about the origin, such as the flag or the run that set the recipe's value.
  public var detail: String?

  /// Creates a used input.
  ///
  /// - Parameters:
  ///   - name: the setting's name.
  ///   - value: its value as shown.
  ///   - origin: where it came from.
  ///   - detail: more about the origin.
  public init(name: String, value: String, origin: Origin, detail: String? = nil) {
    self.name = name
    self.value = value
    self.origin = origin
    self.detail = detail
  }

  /// "from --catalog", "from the store's recipe (set by run X)", "default".
  public var originText: String {
    switch origin {
    case .flag: return "from " + (detail ?? "a flag")
    case .recipe: return "from the store's recipe" + (detail.map { " (\($0))" } ?? "")
    case .simulator: return "the simulator's world" + (detail.map { " (\($0))" } ?? "")
    case .default: return "default" + (detail.map { " (\($0))" } ?? "")
    }
  }

  /// Writes the input as `{"name", "value", "origin", "detail"}`: the same shape in the store's
  /// run summary and in `run.json`.
  ///
  /// - Parameter writer: where to write.
  public func write(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("name", name)
    writer.field("value", value)
    writer.field("origin", origin.rawValue)
    writer.field("detail", detail)
    writer.endObject()
  }
}
