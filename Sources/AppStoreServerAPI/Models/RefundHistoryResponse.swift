import JSON

/// One page of a customer's refunded and revoked transactions (v2), every one verified.
public struct RefundHistoryResponse: Sendable, Hashable {
  /// The token to send for the next page.
  public var revision: String?
  /// Whether more pages follow.
  public var hasMore: Bool
  /// The transactions, sorted by revocation date; may be empty.
  public var transactions: [Verified<JWSTransaction>]

  /// A page from its parts.
  ///
  /// - Parameters:
  ///   - revision: The revision token.
  ///   - hasMore: Whether more pages follow.
  ///   - transactions: The verified transactions.
  public init(revision: String?, hasMore: Bool, transactions: [Verified<JWSTransaction>]) {
    self.revision = revision
    self.hasMore = hasMore
    self.transactions = transactions
  }

  /// Writes the page as the API sends it.
  ///
  /// - Parameter writer: The destination.
  public func write(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("signedTransactions", transactions.map(\.jws))
    writer.member("revision", revision)
    writer.field("hasMore", hasMore)
    writer.endObject()
  }

  static func decode(_ body: [UInt8], verifier: SignedDataVerifier)
    throws(ResponseDecodingFailure) -> RefundHistoryResponse
  {
    var page = RefundHistoryResponse(revision: nil, hasMore: false, transactions: [])
    var signed: [String] = []
    try ResponseDecodingFailure.reading(body) { reader throws(JSONError) in
      try reader.beginObject()
      while let key = try reader.nextKey() {
        switch key {
        case "revision": page.revision = try reader.readOptionalString()
        case "hasMore": page.hasMore = try reader.readOptionalBool() ?? false
        case "signedTransactions": signed = try reader.readOptionalStrings() ?? []
        default: try reader.skipValue()
        }
      }
    }
    page.transactions = try ResponseDecodingFailure.verifying(signed, verifier.verifyTransaction)
    return page
  }
}
