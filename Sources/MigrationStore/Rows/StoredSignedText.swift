/// A signed value (a compact JWS) as the store gives it back: its header, stored once for every
/// value signed with the same certificate chain, and the rest.
///
/// The header is about 2.9 KB of a 3.8 KB signed transaction. Readers that only decode the
/// payload (compare, link) never need it joined back on: `rest` holds the payload, and the header
/// text is one `String` shared by every value of an account read with it, not a copy per value.
public struct StoredSignedText: Hashable, Sendable {
  /// The header segment (before the first `.`), or `nil` when the value was stored whole
  /// (values stored before schema version 6, and text that is not a compact JWS).
  public var header: String?
  /// `payload.signature` when `header` is set; otherwise the whole value.
  public var rest: String

  /// A value stored as a header and the rest.
  ///
  /// - Parameters:
  ///   - header: the header segment, or `nil` when `rest` is the whole value.
  ///   - rest: the payload and signature, or the whole value.
  public init(header: String?, rest: String) {
    self.header = header
    self.rest = rest
  }

  /// A value stored whole.
  ///
  /// - Parameter whole: the value.
  public init(whole: String) {
    self.init(header: nil, rest: whole)
  }

  /// The value byte for byte as Apple sent it.
  public var whole: String {
    guard let header else { return rest }
    return header + "." + rest
  }
}
