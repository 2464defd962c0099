import Entitlements
import GoldenFiles
import LegacyReceipts
import MigrationReports
import Testing

/// Every category's next action, per side and cause, against a golden table (the table
/// Documentation/Discrepancies.md shows), and no category without an action of its own. Our own
/// code only: the words are ours to choose.
@Suite("Next action per account")
struct NextActionTests {
  /// An App Store view with every date an action may quote.
  static let appStore = SampleWorld.view(.active, expires: "2024-07-01T00:00:00Z") {
    $0.revocationDate = SampleWorld.at("2024-06-02T10:00:00Z")
    $0.gracePeriodExpiresDate = SampleWorld.at("2024-06-20T00:00:00Z")
  }

  static func account(
    _ category: DiscrepancyCategory, cause: DifferenceCause?, table: DiscrepancyCategory?
  ) -> AccountComparison {
    if category.impact == .needsAttention {
      return SampleWorld.accountLevel(
        "a", category, "", evidence: SampleWorld.evidence())
    }
    return SampleWorld.keyed(
      "a", category, cause, "", old: nil, new: appStore, tableCategory: table)
  }

  @Test("the table of actions: the table's side, then the old logic's by cause")
  func table() throws {
    var lines: [String] = []
    for category in DiscrepancyCategory.allCases {
      let keyLevel = category.impact != .needsAttention && category != .match
      lines.append(
        "\(category.rawValue), table wrong: "
          + NextAction.of(Self.account(.match, cause: nil, table: category)))
      guard keyLevel else {
        lines.append(
          "\(category.rawValue), no table: "
            + NextAction.of(Self.account(category, cause: nil, table: nil)))
        continue
      }
      for cause in [DifferenceCause.logic, .freshness, .catalogue, .undetermined] {
        lines.append(
          "\(category.rawValue), no table, \(cause.rawValue): "
            + NextAction.of(Self.account(category, cause: cause, table: nil)))
      }
      lines.append(
        "\(category.rawValue), table right: "
          + NextAction.of(Self.account(category, cause: .logic, table: .match)))
    }
    try Golden.check(
      Array((lines.joined(separator: "\n") + "\n").utf8), against: "next-actions.txt")
  }

  @Test("every category that differs has an action of its own, never the fallback")
  func complete() {
    for category in DiscrepancyCategory.allCases where category != .match {
      let action = NextAction.of(Self.account(.match, cause: nil, table: category))
      #expect(!action.hasPrefix("no action") || category.impact == .needsAttention, "\(category)")
      #expect(action != "no action", "\(category) falls back to the default")
    }
  }

  @Test("a suspected flaw of the old logic is named in its action")
  func flaw() {
    let account = SampleWorld.keyed(
      "a", .refundMissed, .logic, "", old: nil, new: Self.appStore,
      flaws: [.ignoresCancellation])
    #expect(
      NextAction.of(account)
        == "revoke access: refunded on 2024-06-02; fix the old logic: it ignores "
        + "cancellation_date, so refunded customers keep access")
  }

  @Test("a wrong table row whose notification Apple never delivered names the one to replay")
  func replay() {
    let wrong = Self.account(.match, cause: nil, table: .refundMissed)
    #expect(
      NextAction.of(wrong, lost: ["u-1", "u-2"])
        == "revoke access: refunded on 2024-06-02; check your server's REFUND handling; replay "
        + "notification u-1 (and 1 more) to your server (receipt-migrate notifications replay)")
    #expect(NextAction.of(wrong, lost: []) == NextAction.of(wrong))
    let right = Self.account(.refundMissed, cause: .freshness, table: .match)
    #expect(NextAction.of(right, lost: ["u-1"]) == NextAction.of(right))
  }

  @Test("a product only the table holds is fixed without another product's dates")
  func tableOnlyKey() {
    var account = SampleWorld.keyed(
      "a", .match, nil, "", old: Self.appStore, new: Self.appStore, tableCategory: .staleExpired)
    account.keys[0].tableCategory = .match
    account.tableOnlyKeys = [
      KeyComparison(
        key: .product("com.example.other"), category: .match, cause: nil, old: nil, new: nil,
        table: SampleWorld.view(.active, "com.example.other"), tableCategory: .staleExpired,
        explanation: "")
    ]
    #expect(
      NextAction.of(account) == "revoke access: expired; check your server's EXPIRED handling")
  }
}
