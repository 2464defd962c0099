/// A compact copy of a decoded value, as the store keeps it beside the verbatim one: of a legacy
/// response (`LegacyReceipts.CompactResponse`) or of a signed transaction's payload
/// (`AppStoreServerAPI.CompactTransaction`). The store only keeps the bytes.
public struct CompactCopy: Hashable, Sendable {
  /// The version of the compact form the bytes are in.
  public var format: Int
  /// The bytes.
  public var body: [UInt8]

  /// Creates a copy.
  ///
  /// - Parameters:
  ///   - format: the compact form's version.
  ///   - body: the bytes.
  public init(format: Int, body: [UInt8]) {
    self.format = format
    self.body = body
  }
}
