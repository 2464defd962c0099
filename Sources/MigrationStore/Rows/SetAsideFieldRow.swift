/// One field of a partial legacy record that could not be used, as stored.
public struct SetAsideFieldRow: Hashable, Sendable {
  /// Its JSON path in the record, or its CSV column.
  public var path: String
  /// The stable reason: `masked`, `malformed transaction id`, `wrong type`, ...
  public var reason: String
  /// The full sentence.
  public var detail: String
  /// A sanitised excerpt of the value.
  public var excerpt: String
  /// Where the value starts in the record, when known.
  public var byteOffset: Int?

  /// Creates a row.
  ///
  /// - Parameters:
  ///   - path: the field's path or column.
  ///   - reason: the stable reason.
  ///   - detail: the sentence.
  ///   - excerpt: the sanitised excerpt.
  ///   - byteOffset: where the value starts.
  public init(path: String, reason: String, detail: String, excerpt: String, byteOffset: Int?) {
    self.path = path
    self.reason = reason
    self.detail = detail
    self.excerpt = excerpt
    self.byteOffset = byteOffset
  }
}
