/// An input that could not be accepted, as stored.
public struct QuarantineRow: Hashable, Sendable {
  /// The file.
  public var sourcePath: String
  /// The 1-based line, if any.
  public var sourceLine: Int?
  /// The byte offset.
  public var sourceOffset: Int64
  /// SHA-256 of the rejected bytes (or of what is known of them), so re-reading the same
  /// input does not store it twice.
  public var contentSHA256: [UInt8]
  /// The stable reason category.
  public var reason: String
  /// The full explanation.
  public var detail: String
  /// A short, redacted excerpt.
  public var excerpt: String

  /// Creates a row.
  ///
  /// - Parameters:
  ///   - sourcePath: the file.
  ///   - sourceLine: the line, if any.
  ///   - sourceOffset: the byte offset.
  ///   - contentSHA256: SHA-256 of the rejected bytes.
  ///   - reason: the reason category.
  ///   - detail: the explanation.
  ///   - excerpt: the excerpt.
  public init(
    sourcePath: String, sourceLine: Int?, sourceOffset: Int64, contentSHA256: [UInt8],
    reason: String, detail: String, excerpt: String
  ) {
    self.sourcePath = sourcePath
    self.sourceLine = sourceLine
    self.sourceOffset = sourceOffset
    self.contentSHA256 = contentSHA256
    self.reason = reason
    self.detail = detail
    self.excerpt = excerpt
  }
}
