import Entitlements
import JSON
import LegacyReceipts

/// Renders `run.json`: the run's summary for machines, indented, keys in a fixed order, every
/// category, impact and cause present even when zero so that consumers need no defaults.
struct RunJSONRenderer {
  let content: ReportContent

  func render() -> [UInt8] {
    let summary = content.summary
    let statistics = content.statistics
    var writer = JSONWriter(style: .pretty)
    writer.beginObject()
    writer.field("schema_version", ReportWriter.schemaVersion)
    writer.field("run_id", summary.runId)
    writer.field("tool_version", summary.toolVersion)
    writer.field("started_at", summary.startedAt.iso8601)
    writer.field("finished_at", summary.finishedAt.iso8601)
    writer.field("duration_ms", summary.durationMilliseconds)
    writer.field("as_of", summary.asOf.iso8601)

    writer.key("app_store")
    writer.beginObject()
    writer.field("simulated", summary.appStore.isSimulated)
    writer.field("description", summary.appStore.description)
    writer.field("environment", summary.appStore.environment)
    writer.endObject()

    writer.key("inputs")
    writer.beginObject()
    writer.field("records_read", summary.inputs.recordsRead)
    writer.field("records_accepted", summary.inputs.recordsAccepted)
    writer.field("records_partial", summary.inputs.recordsPartial)
    writer.field("records_quarantined", summary.inputs.recordsQuarantined)
    writer.field("accounts", summary.inputs.accounts)
    writer.endObject()

    writer.key("counts")
    writer.beginObject()
    writer.field("accounts", statistics.accounts)
    writer.field("keys", statistics.keys)
    writer.key("by_impact")
    writer.beginObject()
    for impact in DiscrepancyCategory.Impact.allCases {
      writer.field(impact.rawValue, statistics.count(impact))
    }
    writer.endObject()
    writer.key("by_category")
    writer.beginObject()
    for category in DiscrepancyCategory.allCases {
      writer.field(category.rawValue, statistics.count(category))
    }
    writer.endObject()
    writer.key("by_cause")
    writer.beginObject()
    for cause in DifferenceCause.allCases {
      writer.field(cause.rawValue, statistics.count(cause))
    }
    writer.field("none", statistics.withoutCause)
    writer.endObject()
    // What the differing keys are worth, per impact and category, per currency, as decimal
    // strings in the currency's unit (never floating point, never converted).
    writer.key("money")
    writer.beginObject()
    writer.field("unpriced_keys", statistics.money.unpricedKeys)
    func amounts(_ byCurrency: [String: MoneyAtStake.Amounts]?) {
      writer.beginObject()
      for (currency, amounts) in (byCurrency ?? [:]).sorted(by: { $0.key < $1.key }) {
        writer.key(currency)
        writer.beginObject()
        writer.field("recurring_monthly", MoneyAtStake.text(amounts.recurringMonthly))
        writer.field("one_time", MoneyAtStake.text(amounts.oneTime))
        writer.endObject()
      }
      writer.endObject()
    }
    writer.key("by_impact")
    writer.beginObject()
    for impact in DiscrepancyCategory.Impact.allCases where impact != .none {
      writer.key(impact.rawValue)
      amounts(statistics.money.byImpact[impact])
    }
    writer.endObject()
    writer.key("by_category")
    writer.beginObject()
    for category in DiscrepancyCategory.allCases where category != .match {
      writer.key(category.rawValue)
      amounts(statistics.money.byCategory[category])
    }
    writer.endObject()
    writer.endObject()
    // Every product with its accounts, keys and key categories (only those present).
    writer.key("by_product")
    writer.beginArray()
    for product in statistics.products {
      writer.beginObject()
      writer.field("product_id", product.productId)
      writer.field("subscription_group", product.group.isEmpty ? nil : product.group)
      writer.field("accounts", product.accounts)
      writer.field("keys", product.keys)
      writer.field("differing_keys", product.differing)
      writer.key("money")
      amounts(product.atStake)
      writer.key("by_category")
      writer.beginObject()
      for category in DiscrepancyCategory.allCases {
        if let count = product.byCategory[category] { writer.field(category.rawValue, count) }
      }
      writer.endObject()
      writer.endObject()
    }
    writer.endArray()
    // Every category with its accounts by cause (zero when none), for scripts that weigh logic
    // differences apart from snapshot age.
    writer.key("by_category_and_cause")
    writer.beginObject()
    for category in DiscrepancyCategory.allCases {
      writer.key(category.rawValue)
      writer.beginObject()
      for cause in DifferenceCause.allCases {
        writer.field(cause.rawValue, statistics.count(category, cause: cause))
      }
      writer.endObject()
    }
    writer.endObject()
    writer.key("transitions")
    writer.beginObject()
    for old in StatusTransitions.states {
      writer.key(StatusTransitions.label(old))
      writer.beginObject()
      for new in StatusTransitions.states {
        writer.field(StatusTransitions.label(new), statistics.transitions.count(old: old, new: new))
      }
      writer.endObject()
    }
    writer.endObject()
    writer.key("expiry_differences")
    writer.beginObject()
    for bucket in ExpiryDifferenceHistogram.Bucket.allCases {
      writer.field(bucket.identifier, statistics.expiryDifferences.count(bucket))
    }
    writer.endObject()
    writer.endObject()

    writer.key("team_table")
    writer.beginObject()
    writer.field("compared", summary.comparedTeamTable)
    writer.field("file", summary.teamTableFile)
    writer.field("fixes_file", summary.comparedTeamTable ? ReportWriter.fixesFileName : nil)
    writer.field("accounts", statistics.accountsWithTable)
    writer.key("by_category")
    writer.beginObject()
    for category in DiscrepancyCategory.allCases {
      writer.field(category.rawValue, statistics.tableCount(category))
    }
    writer.endObject()
    writer.key("suspected_flaws")
    writer.beginObject()
    for flaw in LegacyLogicFlaw.allCases {
      writer.field(flaw.rawValue, statistics.count(flaw))
    }
    writer.endObject()
    writer.endObject()

    writer.key("requests")
    writer.beginObject()
    if let share = summary.rateShare { writer.field("rate_share", share) }
    writer.key("total")
    write(RequestTotals(summary.requests), to: &writer)
    writer.key("endpoints")
    writer.beginObject()
    for endpoint in summary.requests {
      writer.key(endpoint.endpoint)
      write(endpoint, to: &writer)
    }
    writer.endObject()
    writer.endObject()

    writer.key("durations_ms")
    writer.beginObject()
    for stage in summary.stageDurations {
      writer.field(stage.stage, stage.milliseconds)
    }
    writer.endObject()

    writer.key("fail_on")
    if let failOn = summary.failOn {
      writer.beginObject()
      writer.field("threshold", failOn.expression)
      writer.field("crossed", failOn.isCrossed)
      writer.key("unevaluated")
      writer.beginArray()
      for selector in failOn.unevaluated { writer.value(selector) }
      writer.endArray()
      writer.field("counted", failOn.counted)
      writer.field("tolerated", failOn.tolerated)
      writer.field("counts", failOn.counts)
      writer.endObject()
    } else {
      writer.null()
    }

    summary.writeInvocation(into: &writer)

    writeAudit(to: &writer)

    writer.key("redaction")
    writer.beginObject()
    writer.field("redacted", content.options.isRedacted)
    writer.field("scheme", content.options.isRedacted ? "keyed-sha256-64" : nil)
    writer.endObject()

    writer.key("html")
    writer.beginObject()
    writer.field("accounts_listed", content.accountsListedInHTML)
    writer.field("row_limit", content.options.htmlRowLimit)
    writer.field("accounts_with_evidence", content.accountsWithHTMLEvidence)
    writer.field("evidence_limit", content.options.htmlEvidenceLimit)
    writer.endObject()
    writer.endObject()
    return writer.bytes + [0x0A]
  }

  /// `since_previous_run`, `refresh` and `lost_notifications`: what a nightly audit reads.
  private func writeAudit(to writer: inout JSONWriter) {
    let summary = content.summary
    writer.key("since_previous_run")
    if let since = summary.since {
      writer.beginObject()
      writer.field("run_id", since.previousRunId)
      writer.field("as_of", since.previousAsOf.iso8601)
      writer.field("new_accounts", since.newAccounts)
      writer.field("accounts_with_new_findings", since.accountsWithNewFindings)
      func counts(_ name: String, _ counts: ChangeCounts?) {
        writer.key(name)
        guard let counts else { return writer.null() }
        writer.beginObject()
        for kind in ChangeKind.allCases { writer.field(kind.rawValue, counts[kind]) }
        writer.endObject()
      }
      counts("primary", since.primary)
      counts("table", since.table)
      writer.key("input_differences")
      writer.beginArray()
      for difference in since.inputDifferences { writer.value(difference) }
      writer.endArray()
      writer.field("changed_accounts", content.context.changes.count)
      writer.endObject()
    } else {
      writer.null()
    }

    writer.key("refresh")
    if let refresh = summary.refresh {
      writer.beginObject()
      writer.field("notification_pages", refresh.notificationPages)
      writer.field("notifications_read", refresh.notificationsRead)
      writer.key("due_by_reason")
      writer.beginObject()
      for reason in ["ran_out", "notification", "hint", "billing_retry", "window_lost", "sweep"] {
        writer.field(reason, refresh.dueByReason[reason] ?? 0)
      }
      writer.endObject()
      writer.field("due", refresh.due)
      writer.field("refreshed", refresh.refreshed)
      writer.field("history_pages", refresh.historyPages)
      writer.field("status_calls", refresh.statusCalls)
      writer.field("failed", refresh.failed)
      writer.field("still_due", refresh.stillDue)
      writer.field("requests", refresh.requests)
      writer.field("budget_exhausted", refresh.budgetExhausted)
      writer.key("data_current_through")
      writer.beginObject()
      for (environment, instant) in refresh.watermarks.sorted(by: { $0.key < $1.key }) {
        writer.field(environment, instant.iso8601)
      }
      writer.endObject()
      writer.key("warnings")
      writer.beginArray()
      for warning in refresh.warnings { writer.value(warning) }
      writer.endArray()
      writeFeeds(of: refresh, to: &writer)
      writer.endObject()
    } else {
      writer.null()
    }
    writeDataAge(to: &writer)

    writer.key("lost_notifications")
    writer.beginObject()
    writer.field("count", summary.lostNotifications)
    writer.field("pending", summary.pendingNotifications)
    writer.field("file", "lost-notifications.csv")
    writer.endObject()

    writer.key("account_tokens")
    if let tokens = content.tokens {
      writer.beginObject()
      writer.field("mapping", summary.tokenMapping)
      for (name, counts) in [("purchases", tokens.purchases), ("accounts", tokens.accounts)] {
        writer.key(name)
        writer.beginObject()
        for finding in TokenFinding.allCases {
          writer.field(finding.rawValue, counts[finding] ?? 0)
        }
        writer.endObject()
      }
      writer.field("association_leaks", tokens.leaks)
      writer.field("writes_needed", tokens.writes.count)
      writer.field("file", "account-tokens.csv")
      writer.endObject()
    } else {
      writer.null()
    }
  }

  private func write(_ totals: RequestTotals, to writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("requests", totals.requests)
    writer.field("successes", totals.successes)
    writer.field("failures", totals.failures)
    writer.field("retries", totals.retries)
    writer.field("rate_limited", totals.rateLimited)
    writer.field("transport_errors", totals.transportErrors)
    writer.field("verification_failures", totals.verificationFailures)
    writer.endObject()
  }

  /// The client's field names (`RequestCountersSnapshot.write(to:)`), so both agree.
  private func write(_ endpoint: EndpointStatistics, to writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("requests", endpoint.requests)
    writer.field("successes", endpoint.successes)
    writer.field("failures", endpoint.failures)
    writer.field("retries", endpoint.retries)
    writer.field("rate_limited", endpoint.rateLimited)
    writer.field("transport_errors", endpoint.transportErrors)
    writer.field("verification_failures", endpoint.verificationFailures)
    writer.key("errors_by_status")
    writer.beginObject()
    for (status, count) in endpoint.errorsByStatus.sorted(by: { $0.key < $1.key }) {
      writer.field(String(status), count)
    }
    writer.endObject()
    writer.key("errors_by_code")
    writer.beginObject()
    for (code, count) in endpoint.errorsByCode.sorted(by: { $0.key < $1.key }) {
      writer.field(String(code), count)
    }
    writer.endObject()
    if let cap = endpoint.rateCap { writer.field("rate_cap_per_second", cap) }
    if let busiest = endpoint.busiestSecond { writer.field("busiest_second", busiest) }
    writer.endObject()
  }
}
