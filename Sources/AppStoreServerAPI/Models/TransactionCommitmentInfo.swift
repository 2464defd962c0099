import Chronology
import JSON

/// The commitment plan of a transaction: a subscription the customer committed to for several
/// billing periods (`commitmentInfo`).
public struct TransactionCommitmentInfo: JSONRepresentable, Hashable {
  /// Which billing period of the commitment this transaction pays for.
  public var billingPeriodNumber: Int64?

  /// When the commitment ends.
  public var commitmentExpiresDate: Timestamp?

  /// The price of the whole commitment, in milli-units.
  public var commitmentPrice: Int64?

  /// How many billing periods the commitment has.
  public var totalBillingPeriods: Int64?

  /// A value with the given members; every member defaults to absent.
  ///
  /// - Parameters:
  ///   - billingPeriodNumber: Which billing period of the commitment this transaction pays for.
  ///   - commitmentExpiresDate: When the commitment ends.
  ///   - commitmentPrice: The price of the whole commitment, in milli-units.
  ///   - totalBillingPeriods: How many billing periods the commitment has.
  public init(
    billingPeriodNumber: Int64? = nil,
    commitmentExpiresDate: Timestamp? = nil,
    commitmentPrice: Int64? = nil,
    totalBillingPeriods: Int64? = nil
  ) {
    self.billingPeriodNumber = billingPeriodNumber
    self.commitmentExpiresDate = commitmentExpiresDate
    self.commitmentPrice = commitmentPrice
    self.totalBillingPeriods = totalBillingPeriods
  }

  // MARK: - JSON

  /// Reads the object; unknown members are skipped.
  ///
  /// - Parameter reader: A reader positioned before the object.
  /// - Returns: The value.
  /// - Throws: `JSONError` when the object is malformed or a member has the wrong type.
  public static func read(from reader: inout JSONReader) throws(JSONError)
    -> TransactionCommitmentInfo
  {
    var value = TransactionCommitmentInfo()
    try reader.beginObject()
    while let key = try reader.nextKey() {
      switch key {
      case "billingPeriodNumber": value.billingPeriodNumber = try reader.readOptionalInt64()
      case "commitmentExpiresDate": value.commitmentExpiresDate = try reader.readOptionalTimestamp()
      case "commitmentPrice": value.commitmentPrice = try reader.readOptionalInt64()
      case "totalBillingPeriods": value.totalBillingPeriods = try reader.readOptionalInt64()
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
    writer.member("billingPeriodNumber", billingPeriodNumber)
    writer.member("commitmentExpiresDate", commitmentExpiresDate)
    writer.member("commitmentPrice", commitmentPrice)
    writer.member("totalBillingPeriods", totalBillingPeriods)
    writer.endObject()
  }
}
