/// `world.json` cannot be opened to be served, or a customer cannot be read back from it.
public struct WorldFileError: Error, CustomStringConvertible, Sendable {
  /// What went wrong, naming the file.
  public let description: String
}
