import Chronology

/// Why a customer's stored App Store data cannot say what holds at the comparison instant: a
/// state it reported has run out since it was fetched, or a change is known to have happened
/// since (a notification, a refresh that failed or ran out of budget) and the customer has not
/// been asked again yet.
///
/// A stored status is true as of its `signedDate`, not forever: an active subscription past its
/// expiry may have renewed, entered billing retry or expired; a grace period past its end may
/// have recovered or lapsed. The comparison never guesses which.
public struct StaleEvidence: Hashable, Sendable {
  /// What went stale.
  public enum Kind: Hashable, Sendable {
    /// An active status whose `expiresDate` has passed.
    case activePastExpiry(expiresDate: Timestamp)
    /// A billing-grace-period status whose `gracePeriodExpiresDate` has passed.
    case gracePeriodEnded(gracePeriodExpiresDate: Timestamp)
    /// The customer is due for a refresh that has not happened yet; the detail says why.
    case refreshPending(reason: String)
    /// Nothing vouches for the data since this instant, and the comparison instant is more
    /// than the maximum data age after it: any state may have changed unseen.
    case tooOld(vouchedThrough: Timestamp, maxAgeMilliseconds: Int64)
  }

  /// The customer's key.
  public var customerKey: String
  /// The subscription group (for status evidence).
  public var group: String?
  /// The product of the status's latest transaction.
  public var productId: String?
  /// When the App Store signed the stored data.
  public var signedDate: Timestamp?
  /// What went stale.
  public var kind: Kind

  /// Creates evidence.
  public init(
    customerKey: String, group: String?, productId: String?, signedDate: Timestamp?, kind: Kind
  ) {
    self.customerKey = customerKey
    self.group = group
    self.productId = productId
    self.signedDate = signedDate
    self.kind = kind
  }

  /// One sentence naming the data and its date, and saying nothing about the comparison
  /// instant: "the App Store said on 2025-11-01 that com.example.pro.monthly was active until
  /// 2025-11-05".
  public var sentence: String {
    let fetched = "the App Store said on \(ExplanationWriter.day(signedDate))"
    let product = productId ?? "a subscription"
    switch kind {
    case .activePastExpiry(let expires):
      return "\(fetched) that \(product) was active until \(ExplanationWriter.day(expires))"
    case .gracePeriodEnded(let grace):
      return
        "\(fetched) that \(product) was in its billing grace period until \(ExplanationWriter.day(grace))"
    case .refreshPending(let reason):
      return "customer \(customerKey) is due to be asked again: \(reason)"
    case .tooOld(let vouched, let maxAge):
      let days = Double(maxAge) / Double(Timestamp.millisecondsPerDay)
      let bound = days == days.rounded() ? "\(Int(days)) d" : "\(maxAge / 60_000) min"
      return "customer \(customerKey)'s App Store data holds through "
        + "\(ExplanationWriter.day(vouched)) and nothing vouches for it since: more than the "
        + "maximum data age (\(bound)) before the comparison, so any state of it may have changed"
    }
  }
}
