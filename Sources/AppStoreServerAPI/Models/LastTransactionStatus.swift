import JSON

/// The status of one subscription (one original transaction) of a group, with its latest
/// transaction and renewal information, both verified.
public struct LastTransactionStatus: Sendable, Hashable {
  /// The subscription's status.
  public var status: SubscriptionStatus
  /// The subscription's original transaction id.
  public var originalTransactionId: String
  /// The latest transaction.
  public var transaction: Verified<JWSTransaction>
  /// The renewal information.
  public var renewalInfo: Verified<JWSRenewalInfo>

  /// A status from its parts.
  ///
  /// - Parameters:
  ///   - status: The status.
  ///   - originalTransactionId: The original transaction id.
  ///   - transaction: The verified latest transaction.
  ///   - renewalInfo: The verified renewal information.
  public init(
    status: SubscriptionStatus, originalTransactionId: String,
    transaction: Verified<JWSTransaction>, renewalInfo: Verified<JWSRenewalInfo>
  ) {
    self.status = status
    self.originalTransactionId = originalTransactionId
    self.transaction = transaction
    self.renewalInfo = renewalInfo
  }

  /// Writes the status as the API sends it.
  ///
  /// - Parameter writer: The destination.
  public func write(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("status", status)
    writer.member("originalTransactionId", originalTransactionId)
    writer.member("signedTransactionInfo", transaction.jws)
    writer.member("signedRenewalInfo", renewalInfo.jws)
    writer.endObject()
  }
}
