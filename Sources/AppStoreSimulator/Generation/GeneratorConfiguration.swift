import Chronology
import LegacyReceipts

/// The knobs of the world generator: the world's clock, how customers behave, and how messy
/// the team's legacy archive is. The defaults give realistic proportions: most customers
/// simple, a long tail of complex histories.
public struct GeneratorConfiguration: Sendable {
  /// The world's clock.
  public var now = Timestamp(millisecondsSince1970: 1_761_955_200_000)  // 2025-11-01T00:00:00Z
  /// The billing grace period, in days.
  public var gracePeriodDays = 16
  /// How many days the timeline goes on past the clock (0: it stops at the clock). The legacy
  /// records are all captured before the clock; what happens after it is what a nightly audit
  /// must notice.
  public var daysAfter = 0
  /// How often things happen in those days.
  public var timelineRates = TimelineRates()
  /// The namespace UUID of the team's `appAccountToken`s: when set, every purchase made after
  /// the clock carries the UUID version 5 of its customer's account id in it (what
  /// `--derive-tokens` computes), so a customer who first buys after the cut-over can be
  /// followed into its account. `nil` (the default): purchases carry none.
  public var appAccountTokenNamespace: String?
  /// How customer stories are distributed (relative weights).
  public var archetypeWeights: [(CustomerArchetype, Double)] = CustomerArchetype.defaultWeights

  // MARK: - Account structure

  /// Share of accounts linked to two Apple Accounts (the user changed Apple ID).
  public var twoAppleAccountsRate = 0.02
  /// Share of accounts that share their Apple Account with another account.
  public var sharedAppleAccountRate = 0.02
  /// Share of accounts whose only record is an error response.
  public var errorOnlyRate = 0.02
  /// Share of accounts whose ids the App Store has forgotten (a cleared sandbox account).
  public var forgottenRate = 0.015
  /// Share of accounts with an older snapshot besides the latest one.
  public var secondSnapshotRate = 0.15

  // MARK: - Legacy mess

  /// Share of records in the iOS 6 layout (customers with a single subscription).
  public var iOS6Rate = 0.02
  /// Share of records fetched with `exclude-old-transactions`.
  public var excludeOldTransactionsRate = 0.10
  /// Share of records whose `latest_receipt_info` repeats entries.
  public var duplicateEntriesRate = 0.05
  /// Share of records written with JSON numbers and booleans.
  public var jsonNumbersRate = 0.10
  /// Share of upgrades marked only with `cancellation_date`.
  public var upgradeByCancellationRate = 0.5
  /// Share of records the team stored as raw receipts only (the base64 `receipt-data`).
  public var rawReceiptRate = 0.03

  // MARK: - Ids beside or instead of receipts

  /// Share of (single-customer) accounts whose only record is the customer's
  /// `app_transaction_id`: no receipt at all.
  public var appTransactionIdOnlyRate = 0.02
  /// Share of (single-customer, production) accounts whose only record is an order id from a
  /// receipt e-mail.
  public var orderIdOnlyRate = 0.015
  /// Share of accounts whose team stored the customer's `app_transaction_id` beside every
  /// record: what reaches customers whose receipts hold no transaction id.
  public var appTransactionIdRate = 0.2
  /// Share of records whose `latest_receipt_info` lists the oldest transaction first.
  public var oldestFirstRate = 0.25
  /// Share of accounts of customers who bought consumables whose latest record was captured
  /// right after a consumable purchase, before the app finished it.
  public var unfinishedConsumableRate = 0.3

  // MARK: - The team's table

  /// For each legacy bug, the share of accounts whose table row it decided.
  public var tableFlawRates: [(LegacyLogicFlaw, Double)] = [
    (.ignoresCancellation, 0.05), (.noGracePeriod, 0.05), (.autoRenewMeansEntitled, 0.05),
    (.missingIntentMeansActive, 0.03), (.takesLastArrayElement, 0.05),
    (.readsInAppInsteadOfLatest, 0.03),
  ]

  /// The bugs of the common server recipe, added to the catalogue later: each account draws
  /// them from a stream of its own, so a seed that made a world before still makes the same
  /// customers and stored data, and only the team table gains these bugs.
  public var recipeFlawRates: [(LegacyLogicFlaw, Double)] = [
    (.keepsUpgradedRows, 0.04), (.filtersByOneOriginalId, 0.03), (.anyCancellationRevokes, 0.04),
  ]

  /// Bugs teams are known to have shipped, added after the recipe's: drawn from the same
  /// stream after those, so worlds made before keep every earlier draw.
  public var shippedFlawRates: [(LegacyLogicFlaw, Double)] = [
    (.autoRenewOffMeansExpired, 0.03), (.addsFixedGraceDays, 0.03),
    (.nonRenewingOwnedForever, 0.03), (.consumablesCountAsOwned, 0.03),
    (.takesFirstArrayElement, 0.03), (.status0MeansSubscribed, 0.02),
  ]

  // MARK: - Parts of a larger world

  /// Where this world's numbering starts, when it is one part of a larger world made in parts
  /// (what `bench scale` does to build a million accounts in bounded memory): account ids and
  /// their random streams continue from `firstAccount`, customer ids from `firstCustomer`.
  /// Zero for a whole world.
  public var numbering = WorldNumbering()

  /// The default configuration.
  public init() {}
}
