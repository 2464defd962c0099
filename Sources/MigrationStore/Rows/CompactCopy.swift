/// A compact copy of a decoded legacy response, as the store keeps it beside the verbatim
/// record (the store only keeps the bytes; `LegacyReceipts.CompactResponse` writes and reads
/// them).
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
