/// Where a record was read: the file, the line (for line-based formats) and the byte offset of
/// the record's first byte — enough for an operator to open the file at the right place.
public struct RecordPosition: Hashable, Sendable, CustomStringConvertible {
  /// The file's path as given or found while walking a directory.
  public var path: String
  /// The 1-based line number, for NDJSON and CSV; `nil` for whole-file formats.
  public var line: Int?
  /// The byte offset of the record in the file.
  public var byteOffset: Int64

  /// Creates a position.
  ///
  /// - Parameters:
  ///   - path: the file's path.
  ///   - line: the 1-based line, if the format is line-based.
  ///   - byteOffset: the record's first byte.
  public init(path: String, line: Int?, byteOffset: Int64) {
    self.path = path
    self.line = line
    self.byteOffset = byteOffset
  }

  /// `Legacy/receipts.ndjson:12 (byte 3456)` or `Legacy/responses/a.json`.
  public var description: String {
    if let line { return "\(path):\(line) (byte \(byteOffset))" }
    return byteOffset == 0 ? path : "\(path) (byte \(byteOffset))"
  }
}
