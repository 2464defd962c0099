import JSON

/// The statuses of all of a customer's auto-renewable subscriptions, grouped by subscription
/// group, every signed value verified.
public struct StatusResponse: Sendable, Hashable {
  /// The environment that answered.
  public var environment: AppStoreEnvironment?
  /// The app's bundle id.
  public var bundleId: String?
  /// The app's Apple id.
  public var appAppleId: Int64?
  /// One entry per subscription group; empty for a customer without subscriptions.
  public var groups: [SubscriptionGroupStatus]

  /// An answer from its parts.
  ///
  /// - Parameters:
  ///   - environment: The environment.
  ///   - bundleId: The bundle id.
  ///   - appAppleId: The app Apple id.
  ///   - groups: The groups.
  public init(
    environment: AppStoreEnvironment?, bundleId: String?, appAppleId: Int64?,
    groups: [SubscriptionGroupStatus]
  ) {
    self.environment = environment
    self.bundleId = bundleId
    self.appAppleId = appAppleId
    self.groups = groups
  }

  /// Writes the answer as the API sends it (`data` holds the groups).
  ///
  /// - Parameter writer: The destination.
  public func write(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("environment", environment)
    writer.member("bundleId", bundleId)
    writer.member("appAppleId", appAppleId)
    writer.key("data")
    writer.beginArray()
    for group in groups { group.write(to: &writer) }
    writer.endArray()
    writer.endObject()
  }

  private struct RawEntry {
    var status: SubscriptionStatus?
    var originalTransactionId: String?
    var signedTransactionInfo: String?
    var signedRenewalInfo: String?
  }

  static func decode(_ body: [UInt8], verifier: SignedDataVerifier)
    throws(ResponseDecodingFailure) -> StatusResponse
  {
    var answer = StatusResponse(environment: nil, bundleId: nil, appAppleId: nil, groups: [])
    var rawGroups: [(String?, [RawEntry])] = []
    try ResponseDecodingFailure.reading(body) { reader throws(JSONError) in
      try reader.beginObject()
      while let key = try reader.nextKey() {
        switch key {
        case "environment": answer.environment = try reader.readOptional(AppStoreEnvironment.self)
        case "bundleId": answer.bundleId = try reader.readOptionalString()
        case "appAppleId": answer.appAppleId = try reader.readOptionalInt64()
        case "data":
          rawGroups =
            try reader.readOptionalArray { reader throws(JSONError) in
              try readGroup(&reader)
            } ?? []
        default: try reader.skipValue()
        }
      }
    }
    for (identifier, entries) in rawGroups {
      var statuses: [LastTransactionStatus] = []
      for entry in entries {
        guard let status = entry.status, let transaction = entry.signedTransactionInfo,
          let renewal = entry.signedRenewalInfo
        else {
          throw .shape(
            "a lastTransactions entry lacks status, signedTransactionInfo or signedRenewalInfo")
        }
        let verifiedTransaction: Verified<JWSTransaction>
        let verifiedRenewal: Verified<JWSRenewalInfo>
        do {
          verifiedTransaction = try verifier.verifyTransaction(transaction)
          verifiedRenewal = try verifier.verifyRenewalInfo(renewal)
        } catch {
          throw .verification(error)
        }
        guard
          let originalTransactionId = entry.originalTransactionId
            ?? verifiedTransaction.payload.originalTransactionId
        else {
          throw .shape("a lastTransactions entry names no originalTransactionId")
        }
        statuses.append(
          LastTransactionStatus(
            status: status, originalTransactionId: originalTransactionId,
            transaction: verifiedTransaction, renewalInfo: verifiedRenewal))
      }
      guard let identifier else {
        throw .shape("a subscription group of the status answer has no subscriptionGroupIdentifier")
      }
      answer.groups.append(
        SubscriptionGroupStatus(subscriptionGroupIdentifier: identifier, lastTransactions: statuses)
      )
    }
    return answer
  }

  private static func readGroup(_ reader: inout JSONReader) throws(JSONError)
    -> (String?, [RawEntry])
  {
    var identifier: String?
    var entries: [RawEntry] = []
    try reader.beginObject()
    while let key = try reader.nextKey() {
      switch key {
      case "subscriptionGroupIdentifier": identifier = try reader.readOptionalString()
      case "lastTransactions":
        entries =
          try reader.readOptionalArray { reader throws(JSONError) in
            var entry = RawEntry()
            try reader.beginObject()
            while let key = try reader.nextKey() {
              switch key {
              case "status": entry.status = try reader.readOptional(SubscriptionStatus.self)
              case "originalTransactionId":
                entry.originalTransactionId = try reader.readOptionalString()
              case "signedTransactionInfo":
                entry.signedTransactionInfo = try reader.readOptionalString()
              case "signedRenewalInfo": entry.signedRenewalInfo = try reader.readOptionalString()
              default: try reader.skipValue()
              }
            }
            return entry
          } ?? []
      default: try reader.skipValue()
      }
    }
    return (identifier, entries)
  }
}
