import JSON

/// The answer to an order id look-up: whether the order is valid and its verified transactions.
public struct OrderLookupResponse: Sendable, Hashable {
  /// Valid (0) or invalid (1).
  public var status: OrderLookupStatus
  /// The order's transactions.
  public var transactions: [Verified<JWSTransaction>]

  /// An answer from its parts.
  ///
  /// - Parameters:
  ///   - status: The status.
  ///   - transactions: The verified transactions.
  public init(status: OrderLookupStatus, transactions: [Verified<JWSTransaction>]) {
    self.status = status
    self.transactions = transactions
  }

  /// Writes the answer as the API sends it: Apple documents that an invalid order's answer
  /// has no `signedTransactions` array.
  ///
  /// - Parameter writer: The destination.
  public func write(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("status", status)
    if status != .invalid || !transactions.isEmpty {
      writer.member("signedTransactions", transactions.map(\.jws))
    }
    writer.endObject()
  }

  static func decode(_ body: [UInt8], verifier: SignedDataVerifier)
    throws(ResponseDecodingFailure) -> OrderLookupResponse
  {
    var status: OrderLookupStatus?
    var signed: [String] = []
    try ResponseDecodingFailure.reading(body) { reader throws(JSONError) in
      try reader.beginObject()
      while let key = try reader.nextKey() {
        switch key {
        case "status": status = try reader.readOptional(OrderLookupStatus.self)
        case "signedTransactions": signed = try reader.readOptionalStrings() ?? []
        default: try reader.skipValue()
        }
      }
    }
    guard let status else { throw .shape("the order look-up answer has no status") }
    return OrderLookupResponse(
      status: status,
      transactions: try ResponseDecodingFailure.verifying(signed, verifier.verifyTransaction))
  }
}
