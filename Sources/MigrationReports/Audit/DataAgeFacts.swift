import Chronology

/// How old the App Store data a run compared is, at its comparison instant: per customer, the
/// instant its data holds through — its fetch, or its environment's watermark when the change
/// feed vouched for it later — which is what the comparison reads it by.
public struct DataAgeFacts: Hashable, Sendable {
  /// Customers with complete App Store data.
  public var customers: Int
  /// The oldest instant a customer's data holds through (`nil` when none is recorded).
  public var oldest: Timestamp?
  /// The median instant.
  public var median: Timestamp?
  /// The bound: data that holds only through an instant before `asOf − maxDataAge` is older
  /// than it.
  public var maxDataAgeMilliseconds: Int64
  /// Customers whose data is older than the bound (or of an unrecorded instant).
  public var olderThanBound: Int

  /// Creates facts.
  public init(
    customers: Int, oldest: Timestamp?, median: Timestamp?, maxDataAgeMilliseconds: Int64,
    olderThanBound: Int
  ) {
    self.customers = customers
    self.oldest = oldest
    self.median = median
    self.maxDataAgeMilliseconds = maxDataAgeMilliseconds
    self.olderThanBound = olderThanBound
  }

  /// "oldest 3 d 2 h (2025-10-29), median 5 h; 12 of 300 customers (4.0 %) older than 3 d".
  ///
  /// - Parameter asOf: the comparison instant the ages are counted to.
  /// - Returns: the sentence.
  public func sentence(asOf: Timestamp) -> String {
    guard customers > 0 else { return "no customer has App Store data" }
    func age(_ instant: Timestamp?) -> String {
      guard let instant else { return "unrecorded" }
      return ReportFormatting.age(milliseconds: asOf.milliseconds(since: instant))
        + " (\(instant.iso8601))"
    }
    return "oldest \(age(oldest)), median \(age(median)); "
      + "\(ReportFormatting.count(olderThanBound)) of \(ReportFormatting.count(customers)) "
      + "customers (\(ReportFormatting.share(olderThanBound, of: customers))) older than "
      + ReportFormatting.age(milliseconds: maxDataAgeMilliseconds)
  }
}
