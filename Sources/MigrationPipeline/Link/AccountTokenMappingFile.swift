import Entitlements

/// A token mapping read from the team's file, with the rows that could not be used.
public struct AccountTokenMappingFile: Sendable {
  /// A row that could not be used.
  public struct QuarantinedRow: Hashable, Sendable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// The line, 1 for the header.
    public var line: Int
    /// Why.
    public var reason: String

    /// `tokens.csv:7: the token … already belongs to account 12`.
    public var description: String { "\(path):\(line): \(reason)" }
  }

  /// The file.
  public var path: String
  /// The usable rows.
  public var mapping = AccountTokenMapping()
  /// Rows read (the header and blank lines not counted).
  public var rowsRead = 0
  /// The rows that could not be used, in file order.
  public var quarantined: [QuarantinedRow] = []

  /// An empty mapping of a file.
  public init(path: String) {
    self.path = path
  }
}
