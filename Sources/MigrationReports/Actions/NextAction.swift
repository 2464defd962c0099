import Chronology
import Entitlements

/// The one thing to do about an account, as a short imperative: what to change and why, from
/// its category, its cause and the side that differs.
///
/// The team's table is what customers live by, so when a run compared one its side decides:
/// a wrong row is fixed to what the App Store says (with the notification the team's server
/// should have acted on), a right one needs nothing. Without a table the old logic's side
/// decides: a freshness difference needs nothing (the stored receipt is only older than the
/// change), a logic difference asks for the old logic's bug to be fixed. Accounts the data
/// cannot decide name what would let them be decided. Documentation/Discrepancies.md lists the
/// whole table.
public enum NextAction {
  /// The account's next action, naming the lost notifications to replay when the team's table
  /// is wrong and Apple never delivered what would have fixed it.
  ///
  /// - Parameters:
  ///   - account: the account's comparison.
  ///   - lost: the UUIDs of the account's lost notifications (not the pending ones: Apple may
  ///     still deliver those).
  public static func of(_ account: AccountComparison, lost: [String]) -> String {
    let action = of(account)
    guard let first = lost.first, let table = account.tableCategory, table != .match,
      accountLevel(table) == nil, accountLevel(account.category) == nil
    else { return action }
    let more = lost.count > 1 ? " (and \(lost.count - 1) more)" : ""
    return "\(action); replay notification \(first)\(more) to your server "
      + "(receipt-migrate notifications replay)"
  }

  /// The account's next action.
  ///
  /// - Parameter account: the account's comparison.
  public static func of(_ account: AccountComparison) -> String {
    if let action = accountLevel(account.category) { return action }
    if let table = account.tableCategory {
      guard table != .match else {
        return account.category == .match
          ? "no action" : "no action: your table agrees with the App Store"
      }
      if let action = accountLevel(table) { return action }
      // The key the table gets wrong, which may be one only the table holds; never another
      // product's key, whose dates would be wrong.
      let key = (account.keys + account.tableOnlyKeys).first { $0.tableCategory == table }
      let fix = change(table, appStore: key?.new)
      return notification(table).map { "\(fix); check your server's \($0) handling" } ?? fix
    }
    guard account.category != .match else { return "no action" }
    // The catalogue lacks what the comparison needs, whatever the cause says.
    if account.category == .durationUnknown {
      return change(.durationUnknown, appStore: account.keys.first?.new)
    }
    switch account.cause {
    case .freshness?:
      return "no action: the stored receipt is older than the App Store's change"
    case .logic?:
      let key = account.keys.first { $0.category == account.category } ?? account.keys.first
      let fix = change(account.category, appStore: key?.new)
      guard let flaw = account.suspectedFlaws.first else {
        return "\(fix); fix the old logic, which decides otherwise"
      }
      return "\(fix); fix the old logic: it \(flaw.explanation)"
    case .catalogue?:
      return change(.durationUnknown, appStore: account.keys.first?.new)
    case .undetermined?, nil:
      return "look at the evidence: when the stored receipt was captured is unknown, so the "
        + "cause cannot be told"
    }
  }

  /// The action of a category the data cannot decide, or `nil` for a key-level category.
  static func accountLevel(_ category: DiscrepancyCategory) -> String? {
    switch category {
    case .legacyErrorStatus:
      return "find the customer another way: every stored response is an error status "
        + "(an app transaction id or an order id reaches the App Store)"
    case .noTransactionId:
      return "find the customer: record its app transaction id or an order id from its "
        + "receipt e-mail"
    case .unresolved:
      return "run again: an id could not be resolved (the reason is in the evidence)"
    case .staleAppStoreData:
      return "run the audit again: the App Store data is too old to decide"
    case .unknownToAppStore:
      return "check the app and environment: the App Store knows none of the account's ids"
    case .sandboxOnly:
      return "no action in production: the account has sandbox purchases only"
    case .sharedAppleAccount:
      return "decide which account owns the purchases: the Apple Account is shared"
    case .idsOnly:
      return "no action on the old logic: the account has ids but no stored response to "
        + "evaluate"
    default:
      return nil
    }
  }

  /// What to set for a key-level category, with the App Store's date when it has one.
  static func change(_ category: DiscrepancyCategory, appStore view: EntitlementView?) -> String {
    let product = view?.productId.map { "\($0) " } ?? ""
    // "refunded on 2024-06-02", or "refunded" when the App Store's view gives no date (a
    // product only the team's table knows): the phrase without its last word, a preposition.
    func on(_ phrase: String, _ instant: Timestamp?) -> String {
      instant.map { "\(phrase) \(day($0))" }
        ?? phrase.split(separator: " ").dropLast().joined(separator: " ")
    }
    switch category {
    case .refundMissed: return "revoke access: " + on("refunded on", view?.revocationDate)
    case .revokedFamily:
      return "revoke access: " + on("Family Sharing access revoked on", view?.revocationDate)
    case .proratedRefund:
      return "revoke access: " + on("refunded (prorated) on", view?.revocationDate)
    case .oneTimeRevoked:
      return "revoke access: " + on("the purchase was revoked on", view?.revocationDate)
    case .billingRetryAsActive:
      return "revoke access: " + on("in billing retry since", view?.expiresDate)
    case .staleExpired: return "revoke access: " + on("expired on", view?.expiresDate)
    case .graceMissed:
      return "grant access: "
        + on("in the billing grace period until", view?.gracePeriodExpiresDate)
    case .staleRenewed: return "grant access: " + on("\(product)active until", view?.expiresDate)
    case .familySharedOnlyInAPI:
      return "grant access: " + on("shared through Family Sharing until", view?.expiresDate)
    case .missingInReceipt:
      return "grant access: "
        + (view?.expiresDate == nil
          ? "\(product)owned" : on("\(product)active until", view?.expiresDate))
    case .upgradeMisread: return "switch the product to \(product)(upgraded in its group)"
    case .expiryDrift:
      return "set the expiry to " + (view?.expiresDate.map(day) ?? "the App Store's")
    case .durationUnknown:
      return "add the duration of \(view?.productId ?? "the product") to the catalogue "
        + "(--catalog), then compare again"
    default: return accountLevel(category) ?? "no action"
    }
  }

  /// The App Store Server Notification whose handling a wrong table row points at.
  static func notification(_ category: DiscrepancyCategory) -> String? {
    switch category {
    case .refundMissed, .proratedRefund, .oneTimeRevoked: return "REFUND"
    case .revokedFamily: return "REVOKE"
    case .billingRetryAsActive, .graceMissed: return "DID_FAIL_TO_RENEW"
    case .staleExpired: return "EXPIRED"
    case .staleRenewed: return "DID_RENEW"
    case .upgradeMisread: return "DID_CHANGE_RENEWAL_PREF"
    default: return nil
    }
  }

  /// `2024-06-01`.
  static func day(_ instant: Timestamp) -> String { String(instant.iso8601.prefix(10)) }
}
