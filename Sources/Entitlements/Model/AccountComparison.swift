import LegacyReceipts

/// The comparison of one account: its primary category, a one-line explanation, every key's
/// comparison, and the evidence.
public struct AccountComparison: Hashable, Sendable {
  /// The team's account id.
  public var accountId: String
  /// The primary category: exactly one per account.
  public var category: DiscrepancyCategory
  /// One line for people.
  public var explanation: String
  /// Why the primary difference arose; `nil` for account-level categories and matches.
  public var cause: DifferenceCause?
  /// Every key, the one that decided the primary category first.
  public var keys: [KeyComparison]
  /// Other findings worth a person's attention (other keys' categories, label differences,
  /// error responses beside usable ones, unverified raw receipts...).
  public var secondaryFindings: [String]
  /// The team's table against the App Store, when a table was given.
  public var tableCategory: DiscrepancyCategory?
  /// The legacy bugs that reproduce the table's rows from the same responses.
  public var suspectedFlaws: [LegacyLogicFlaw]
  /// What the comparison rests on.
  public var evidence: AccountEvidence
  /// The `appAccountToken` of every purchase against the team's mapping, when one was given.
  public var tokenAudit: AccountTokenAudit?
  /// The keys only the team's table holds (neither the legacy data nor the App Store knows
  /// them, such as a consumable the table marks active) that the table gets wrong: they count
  /// in ``tableCategory`` and need a fix in `fixes.csv`, but are no finding of the migration,
  /// so they are not among ``keys``.
  public var tableOnlyKeys: [KeyComparison]

  /// Creates an account comparison.
  public init(
    accountId: String, category: DiscrepancyCategory, explanation: String, cause: DifferenceCause?,
    keys: [KeyComparison], secondaryFindings: [String] = [],
    tableCategory: DiscrepancyCategory? = nil,
    suspectedFlaws: [LegacyLogicFlaw] = [], evidence: AccountEvidence,
    tokenAudit: AccountTokenAudit? = nil, tableOnlyKeys: [KeyComparison] = []
  ) {
    self.accountId = accountId
    self.category = category
    self.explanation = explanation
    self.cause = cause
    self.keys = keys
    self.secondaryFindings = secondaryFindings
    self.tableCategory = tableCategory
    self.suspectedFlaws = suspectedFlaws
    self.evidence = evidence
    self.tokenAudit = tokenAudit
    self.tableOnlyKeys = tableOnlyKeys
  }
}
