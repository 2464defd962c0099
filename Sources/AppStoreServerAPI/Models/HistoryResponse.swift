import JSON

/// One page of a customer's transaction history (v2), every transaction verified.
public struct HistoryResponse: Sendable, Hashable {
  /// The token to send for the next page, and to store after an ascending unfiltered walk.
  public var revision: String?
  /// Whether more pages follow.
  public var hasMore: Bool
  /// The app's bundle id.
  public var bundleId: String?
  /// The app's Apple id.
  public var appAppleId: Int64?
  /// The environment that answered.
  public var environment: AppStoreEnvironment?
  /// The page's transactions (at most 20), in the requested order.
  public var transactions: [Verified<JWSTransaction>]

  /// A page from its parts.
  ///
  /// - Parameters:
  ///   - revision: The revision token.
  ///   - hasMore: Whether more pages follow.
  ///   - bundleId: The bundle id.
  ///   - appAppleId: The app Apple id.
  ///   - environment: The environment.
  ///   - transactions: The verified transactions.
  public init(
    revision: String?, hasMore: Bool, bundleId: String?, appAppleId: Int64?,
    environment: AppStoreEnvironment?, transactions: [Verified<JWSTransaction>]
  ) {
    self.revision = revision
    self.hasMore = hasMore
    self.bundleId = bundleId
    self.appAppleId = appAppleId
    self.environment = environment
    self.transactions = transactions
  }

  /// Writes the page as the API sends it, with the raw JWS in `signedTransactions`.
  ///
  /// - Parameter writer: The destination.
  public func write(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("revision", revision)
    writer.field("hasMore", hasMore)
    writer.member("bundleId", bundleId)
    writer.member("appAppleId", appAppleId)
    writer.member("environment", environment)
    writer.member("signedTransactions", transactions.map(\.jws))
    writer.endObject()
  }

  static func decode(_ body: [UInt8], verifier: SignedDataVerifier)
    throws(ResponseDecodingFailure) -> HistoryResponse
  {
    var page = HistoryResponse(
      revision: nil, hasMore: false, bundleId: nil, appAppleId: nil, environment: nil,
      transactions: [])
    var signed: [String] = []
    try ResponseDecodingFailure.reading(body) { reader throws(JSONError) in
      try reader.beginObject()
      while let key = try reader.nextKey() {
        switch key {
        case "revision": page.revision = try reader.readOptionalString()
        case "hasMore": page.hasMore = try reader.readOptionalBool() ?? false
        case "bundleId": page.bundleId = try reader.readOptionalString()
        case "appAppleId": page.appAppleId = try reader.readOptionalInt64()
        case "environment": page.environment = try reader.readOptional(AppStoreEnvironment.self)
        case "signedTransactions": signed = try reader.readOptionalStrings() ?? []
        default: try reader.skipValue()
        }
      }
    }
    page.transactions = try ResponseDecodingFailure.verifying(signed, verifier.verifyTransaction)
    return page
  }
}
