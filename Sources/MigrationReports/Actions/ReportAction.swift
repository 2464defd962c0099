/// One line of a report's "what to do first": how many accounts (or notifications), why, what
/// they are worth, what to do, and where report.html lists them.
///
/// The terminal headline, summary.md and report.html all write the same lines in the same order
/// (``ActionList``), each in its own markup.
struct ReportAction: Hashable, Sendable {
  /// Which line it is.
  enum Kind: Hashable, Sendable {
    /// Accounts in one of the primary ``ActionBucket``s.
    case accounts(ActionBucket)
    /// Notifications Apple never delivered to the team's server.
    case lostNotifications
  }

  /// Which line it is.
  var kind: Kind
  /// Accounts, or notifications for ``Kind/lostNotifications``.
  var count: Int
  /// What the accounts' differing keys are worth, per currency (empty when nothing is priced).
  var money: [String: MoneyAtStake.Amounts]
  /// The lead of the sentence: "8 accounts lose access".
  var subject: String
  /// Why, after the subject: "because of a logic difference"; may be empty.
  var reason: String
  /// What to do: "fix the logic".
  var advice: String
  /// What the line is made of, after the advice, when it says more: "38 no_transaction_id, 12
  /// shared_apple_account and 29 more".
  var detail: String? = nil
  /// Where report.html shows them: a filter of the account list (`action=logic_loses_access`)
  /// or, for notifications, the id of their section.
  var target: Target
  /// A command that does what the advice says, when there is one.
  var command: String?
  /// Whether a person has something to do (the freshness line says there is nothing).
  var needsAction: Bool

  /// Where a line leads in report.html.
  enum Target: Hashable, Sendable {
    /// A filter of the account list, as the page's address states it: `action=table_wrong`.
    case filter(String)
    /// A section of the page, by id.
    case section(String)

    /// The fragment of report.html's address: `#action=table_wrong`, `#lost-notifications`.
    var fragment: String {
      switch self {
      case .filter(let filter): return "#" + filter
      case .section(let id): return "#" + id
      }
    }
  }

  /// The money as text, such as `USD 12.34/month + 9.99 one-time`, or `nil` when none.
  var moneyText: String? {
    let text = MoneyAtStake.summary(money)
    return text == "—" ? nil : text
  }

  /// The whole line as plain text: "8 accounts lose access because of a logic difference
  /// (USD 12.34/month): fix the logic", with the detail in parentheses at the end.
  var sentence: String {
    subject + (reason.isEmpty ? "" : " " + reason) + (moneyText.map { " (\($0))" } ?? "") + ": "
      + advice + (detail.map { " (\($0))" } ?? "")
  }
}
