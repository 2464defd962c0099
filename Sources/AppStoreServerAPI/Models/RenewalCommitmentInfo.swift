import Chronology
import JSON

/// The commitment plan of a subscription's next renewal (`commitmentInfo` of renewal
/// information).
public struct RenewalCommitmentInfo: JSONRepresentable, Hashable {
  /// The product the commitment renews to.
  public var commitmentAutoRenewProductId: String?

  /// Whether the commitment renews.
  public var commitmentAutoRenewStatus: AutoRenewStatus?

  /// How the renewed commitment is billed.
  public var commitmentRenewalBillingPlanType: BillingPlanType?

  /// When the commitment renews.
  public var commitmentRenewalDate: Timestamp?

  /// The price of the renewed commitment, in milli-units.
  public var commitmentRenewalPrice: Int64?

  /// A value with the given members; every member defaults to absent.
  ///
  /// - Parameters:
  ///   - commitmentAutoRenewProductId: The product the commitment renews to.
  ///   - commitmentAutoRenewStatus: Whether the commitment renews.
  ///   - commitmentRenewalBillingPlanType: How the renewed commitment is billed.
  ///   - commitmentRenewalDate: When the commitment renews.
  ///   - commitmentRenewalPrice: The price of the renewed commitment, in milli-units.
  public init(
    commitmentAutoRenewProductId: String? = nil,
    commitmentAutoRenewStatus: AutoRenewStatus? = nil,
    commitmentRenewalBillingPlanType: BillingPlanType? = nil,
    commitmentRenewalDate: Timestamp? = nil,
    commitmentRenewalPrice: Int64? = nil
  ) {
    self.commitmentAutoRenewProductId = commitmentAutoRenewProductId
    self.commitmentAutoRenewStatus = commitmentAutoRenewStatus
    self.commitmentRenewalBillingPlanType = commitmentRenewalBillingPlanType
    self.commitmentRenewalDate = commitmentRenewalDate
    self.commitmentRenewalPrice = commitmentRenewalPrice
  }

  // MARK: - JSON

  /// Reads the object; unknown members are skipped.
  ///
  /// - Parameter reader: A reader positioned before the object.
  /// - Returns: The value.
  /// - Throws: `JSONError` when the object is malformed or a member has the wrong type.
  public static func read(from reader: inout JSONReader) throws(JSONError) -> RenewalCommitmentInfo
  {
    var value = RenewalCommitmentInfo()
    try reader.beginObject()
    while let key = try reader.nextKey() {
      switch key {
      case "commitmentAutoRenewProductId":
        value.commitmentAutoRenewProductId = try reader.readOptionalString()
      case "commitmentAutoRenewStatus":
        value.commitmentAutoRenewStatus = try reader.readOptional(AutoRenewStatus.self)
      case "commitmentRenewalBillingPlanType":
        value.commitmentRenewalBillingPlanType = try reader.readOptional(BillingPlanType.self)
      case "commitmentRenewalDate": value.commitmentRenewalDate = try reader.readOptionalTimestamp()
      case "commitmentRenewalPrice": value.commitmentRenewalPrice = try reader.readOptionalInt64()
      default: try reader.skipValue()
      }
    }
    return value
  }

  /// Writes the object with its present members.
  ///
  /// - Parameter writer: The destination.
  public func write(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("commitmentAutoRenewProductId", commitmentAutoRenewProductId)
    writer.member("commitmentAutoRenewStatus", commitmentAutoRenewStatus)
    writer.member("commitmentRenewalBillingPlanType", commitmentRenewalBillingPlanType)
    writer.member("commitmentRenewalDate", commitmentRenewalDate)
    writer.member("commitmentRenewalPrice", commitmentRenewalPrice)
    writer.endObject()
  }
}
