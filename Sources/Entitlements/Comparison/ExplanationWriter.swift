import Chronology
import LegacyReceipts

/// One-line explanations of key categories, with the dates, products and revocation types that
/// justify them.
enum ExplanationWriter {
  static func explain(
    _ category: DiscrepancyCategory, old: EntitlementView?, new: EntitlementView?,
    cause: DifferenceCause?,
    capturedAt: Timestamp?
  ) -> String {
    let product = new?.productId ?? old?.productId ?? "the product"
    var text: String
    switch category {
    case .refundMissed:
      text =
        "\(product) was refunded on \(day(new?.revocationDate)); the legacy data still grants it until \(day(old?.expiresDate))"
    case .revokedFamily:
      text =
        "\(product) was withdrawn by Family Sharing on \(day(new?.revocationDate)); the legacy data still grants it"
    case .proratedRefund:
      let share = new?.revocationPercentage.map { " (\($0 / 1000) %)" } ?? ""
      text =
        "\(product) was refunded in part\(share) on \(day(new?.revocationDate)), which legacy receipts cannot show"
    case .oneTimeRevoked:
      text =
        "\(product) was refunded on \(day(new?.revocationDate)); the legacy data still shows it owned"
    case .billingRetryAsActive:
      text =
        "\(product) is in billing retry since \(day(new?.expiresDate)); the old logic still grants access (\(old?.status.rawValue ?? "?"))"
    case .staleExpired:
      if let new {
        text =
          "\(product) expired on \(day(new.expiresDate))\(intent(new.expirationIntent)); the old logic still grants it until \(day(old?.expiresDate))"
      } else {
        text =
          "the old logic grants \(old?.productId ?? "access") but the App Store knows nothing of it"
      }
    case .graceMissed:
      text =
        "\(product) is in the billing grace period until \(day(new?.gracePeriodExpiresDate)); the old logic says \(old?.status.rawValue ?? "expired")"
    case .staleRenewed:
      text =
        "\(product) is active until \(day(new?.expiresDate)); the old logic says \(old?.status.rawValue ?? "expired") (last expiry \(day(old?.expiresDate)))"
    case .familySharedOnlyInAPI:
      text =
        "\(product) is shared by a family organiser until \(day(new?.expiresDate)); the stored receipt never held it"
    case .missingInReceipt:
      text =
        "\(product) (until \(day(new?.expiresDate))) is in the App Store but not in the stored receipt"
    case .upgradeMisread:
      text =
        "the old logic grants \(old?.productId ?? "?") until \(day(old?.expiresDate)), the App Store \(new?.productId ?? "?") until \(day(new?.expiresDate))"
    case .expiryDrift:
      let difference = (new?.expiresDate).flatMap { newExpiry in
        (old?.expiresDate).map { newExpiry.milliseconds(since: $0) / Timestamp.millisecondsPerDay }
      }
      text =
        "both grant \(product); expiry \(day(old?.expiresDate)) in the legacy data, \(day(new?.expiresDate)) in the App Store (\(difference.map { "\($0 > 0 ? "+" : "")\($0) days" } ?? "?"))"
    case .durationUnknown:
      text =
        "\(product) is a non-renewing subscription and the catalogue gives no duration for it, so "
        + "whether it still grants access is unknown; add its duration to the catalogue (P90D, "
        + "P1M, …)"
    case .match:
      text = "both sides agree"
    default:
      text = category.title
    }
    switch cause {
    case .freshness?:
      text += capturedAt.map { "; it changed after the snapshot of \(day($0))" } ?? ""
    case .logic?: text += "; the two disagree at the capture instant too"
    case .undetermined?: text += "; no capture instant is known"
    case .catalogue?, nil: break
    }
    return text
  }

  static func day(_ instant: Timestamp?) -> String {
    guard let instant else { return "an unknown date" }
    return String(instant.iso8601.prefix(10))
  }

  static func intent(_ code: Int64?) -> String {
    code.map { " (\(ExpirationIntent(rawValue: $0)))" } ?? ""
  }
}
