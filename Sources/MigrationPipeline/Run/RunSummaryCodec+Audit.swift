import Chronology
import JSON
import MigrationReports

// MARK: - The audit's facts in a stored summary: feed health, data age, delivery counts

extension RunSummaryCodec {
  /// Writes the audit's facts of a summary into the object being written.
  static func writeAudit(_ summary: RunSummary, into writer: inout JSONWriter) {
    writer.field("pending_notifications", summary.pendingNotifications)
    writer.field("table_accounts_adopted", summary.tableAccountsAdopted)
    writer.field("table_only_accounts", summary.tableOnlyAccounts)
    writer.field("unclaimed_customers", summary.unclaimedCustomers)
    if summary.responsesSetAside > 0 {
      writer.field("responses_set_aside", summary.responsesSetAside)
      writer.field("accounts_with_responses_set_aside", summary.accountsWithResponsesSetAside)
    }
    if let age = summary.dataAge {
      writer.key("data_age")
      writer.beginObject()
      writer.field("customers", age.customers)
      writer.field("oldest_ms", age.oldest?.millisecondsSince1970)
      writer.field("median_ms", age.median?.millisecondsSince1970)
      writer.field("max_data_age_ms", age.maxDataAgeMilliseconds)
      writer.field("older_than_bound", age.olderThanBound)
      writer.endObject()
    }
  }

  /// Writes the audit's refresh facts into the `refresh` object being written.
  static func writeAudit(_ refresh: RefreshFacts, into writer: inout JSONWriter) {
    writer.field("invalid_notifications", refresh.invalidNotifications)
    writer.field("pending_notifications", refresh.pendingNotifications)
    writer.field("delivered_late", refresh.deliveredLate)
    writer.field("failure_pages", refresh.failurePages)
    writer.field("feed_requests", refresh.feedRequests)
    writer.field("transaction_lookups", refresh.transactionLookups)
    writer.field("notifications_outside_store", refresh.notificationsOutsideStore)
    writer.key("feeds")
    writer.beginArray()
    for feed in refresh.feeds {
      writer.beginObject()
      writer.field("environment", feed.environment)
      writer.field("state", feed.state.rawValue)
      writer.key("evidence")
      writer.beginArray()
      for sentence in feed.evidence { writer.value(sentence) }
      writer.endArray()
      writer.field("proven_ms", feed.provenAt?.millisecondsSince1970)
      writer.field("accepted", feed.isAccepted)
      writer.field("sweep", feed.sweep)
      writer.field("swept", feed.swept)
      writer.endObject()
    }
    writer.endArray()
  }

  /// Reads what ``writeAudit(_:into:)-(RunSummary,_)`` wrote.
  static func readAudit(into summary: inout RunSummary, from value: JSONValue) {
    summary.pendingNotifications = Int(value["pending_notifications"]?.int64Value ?? 0)
    summary.tableAccountsAdopted = Int(value["table_accounts_adopted"]?.int64Value ?? 0)
    summary.tableOnlyAccounts = Int(value["table_only_accounts"]?.int64Value ?? 0)
    summary.unclaimedCustomers = Int(value["unclaimed_customers"]?.int64Value ?? 0)
    summary.responsesSetAside = Int(value["responses_set_aside"]?.int64Value ?? 0)
    summary.accountsWithResponsesSetAside = Int(
      value["accounts_with_responses_set_aside"]?.int64Value ?? 0)
    if let age = value["data_age"], case .object = age {
      summary.dataAge = DataAgeFacts(
        customers: Int(age["customers"]?.int64Value ?? 0),
        oldest: age["oldest_ms"]?.int64Value.map(Timestamp.init(millisecondsSince1970:)),
        median: age["median_ms"]?.int64Value.map(Timestamp.init(millisecondsSince1970:)),
        maxDataAgeMilliseconds: age["max_data_age_ms"]?.int64Value ?? 0,
        olderThanBound: Int(age["older_than_bound"]?.int64Value ?? 0))
    }
  }

  /// Reads what ``writeAudit(_:into:)-(RefreshFacts,_)`` wrote.
  static func readAudit(into refresh: inout RefreshFacts, from value: JSONValue) {
    func int(_ key: String) -> Int { Int(value[key]?.int64Value ?? 0) }
    refresh.invalidNotifications = int("invalid_notifications")
    refresh.pendingNotifications = int("pending_notifications")
    refresh.deliveredLate = int("delivered_late")
    refresh.failurePages = int("failure_pages")
    refresh.feedRequests = int("feed_requests")
    refresh.transactionLookups = int("transaction_lookups")
    refresh.notificationsOutsideStore = int("notifications_outside_store")
    guard case .array(let items)? = value["feeds"] else { return }
    refresh.feeds = items.compactMap { item in
      guard let environment = item["environment"]?.stringValue,
        let state = item["state"]?.stringValue.flatMap(FeedHealthFacts.State.init)
      else { return nil }
      var evidence: [String] = []
      if case .array(let sentences)? = item["evidence"] {
        evidence = sentences.compactMap(\.stringValue)
      }
      return FeedHealthFacts(
        environment: environment, state: state, evidence: evidence,
        provenAt: item["proven_ms"]?.int64Value.map(Timestamp.init(millisecondsSince1970:)),
        isAccepted: item["accepted"]?.boolValue ?? false, sweep: item["sweep"]?.stringValue,
        swept: Int(item["swept"]?.int64Value ?? 0))
    }
  }
}
