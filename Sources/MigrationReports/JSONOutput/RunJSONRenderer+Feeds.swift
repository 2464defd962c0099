import JSON

// MARK: - The change feed's health and the data's age in run.json

extension RunJSONRenderer {
  /// Inside `refresh`: `feeds` (per environment: `state`, `evidence`, `proven_at`, `accepted`,
  /// `sweep`, `swept`) and the counts of invalid, pending and late notifications.
  func writeFeeds(of refresh: RefreshFacts, to writer: inout JSONWriter) {
    writer.field("invalid_notifications", refresh.invalidNotifications)
    writer.field("pending_notifications", refresh.pendingNotifications)
    writer.field("delivered_late", refresh.deliveredLate)
    writer.field("notifications_outside_store", refresh.notificationsOutsideStore)
    writer.field("failure_pages", refresh.failurePages)
    writer.field("feed_requests", refresh.feedRequests)
    writer.field("transaction_lookups", refresh.transactionLookups)
    writer.key("feeds")
    writer.beginObject()
    for feed in refresh.feeds {
      writer.key(feed.environment)
      writer.beginObject()
      writer.field("state", feed.state.rawValue)
      writer.field("needs_attention", feed.needsAttention)
      writer.field("accepted", feed.isAccepted)
      writer.field("proven_at", feed.provenAt?.iso8601)
      writer.key("evidence")
      writer.beginArray()
      for sentence in feed.evidence { writer.value(sentence) }
      writer.endArray()
      writer.field("sweep", feed.sweep)
      writer.field("swept", feed.swept)
      writer.endObject()
    }
    writer.endObject()
  }

  /// `data_age`: how old the App Store data compared is at `as_of` (`null` when not recorded).
  func writeDataAge(to writer: inout JSONWriter) {
    let summary = content.summary
    writer.key("coverage")
    writer.beginObject()
    writer.field("table_accounts_backfilled", summary.tableAccountsAdopted)
    writer.field("table_only_accounts", summary.tableOnlyAccounts)
    writer.field("unclaimed_customers", summary.unclaimedCustomers)
    writer.endObject()
    if content.summary.responsesSetAside > 0 {
      writer.key("legacy_responses_set_aside")
      writer.beginObject()
      writer.field("responses", content.summary.responsesSetAside)
      writer.field("accounts", content.summary.accountsWithResponsesSetAside)
      writer.endObject()
    }
    guard let age = content.summary.dataAge else { return }
    writer.key("data_age")
    writer.beginObject()
    writer.field("customers", age.customers)
    writer.field("oldest_holds_through", age.oldest?.iso8601)
    writer.field("median_holds_through", age.median?.iso8601)
    writer.field(
      "oldest_ms", age.oldest.map { content.summary.asOf.milliseconds(since: $0) })
    writer.field(
      "median_ms", age.median.map { content.summary.asOf.milliseconds(since: $0) })
    writer.field("max_data_age_ms", age.maxDataAgeMilliseconds)
    writer.field("older_than_bound", age.olderThanBound)
    writer.endObject()
  }
}
