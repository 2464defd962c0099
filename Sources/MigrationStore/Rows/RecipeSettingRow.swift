/// One setting of the store's recipe as stored: its value (JSON), and who set it when.
public struct RecipeSettingRow: Hashable, Sendable {
  /// The setting's name, such as `catalog`.
  public var name: String
  /// Its value as JSON text (a string, a number, a boolean or an array of strings).
  public var value: String
  /// Who set it: the command of the run that first used it (`migrate`, `audit`, `compare`), or
  /// `recipe set`.
  public var setBy: String
  /// When (Unix ms).
  public var setMilliseconds: Int64

  /// Creates a row.
  public init(name: String, value: String, setBy: String, setMilliseconds: Int64) {
    self.name = name
    self.value = value
    self.setBy = setBy
    self.setMilliseconds = setMilliseconds
  }
}
