/// Why stored compact bytes could not be read back: they were damaged or written by another
/// version of the format.
public struct CompactDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The offset of the byte where reading failed.
  public var offset: Int
  /// What was wrong there.
  public var reason: String

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - offset: the byte offset.
  ///   - reason: what was wrong.
  public init(offset: Int, reason: String) {
    self.offset = offset
    self.reason = reason
  }

  /// The error as one sentence, with its offset.
  public var description: String { "compact copy damaged at byte \(offset): \(reason)" }
}
