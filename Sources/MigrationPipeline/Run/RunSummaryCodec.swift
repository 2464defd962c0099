import Chronology
import Entitlements
import JSON
import MigrationReports

/// Stores a ``RunSummary`` with its run and reads it back, so `report --run` rebuilds the same
/// report later without the network.
public enum RunSummaryCodec {
  /// The summary as JSON.
  ///
  /// - Parameter summary: the summary.
  /// - Returns: compact JSON text.
  public static func encode(_ summary: RunSummary) -> String {
    var writer = JSONWriter()
    writer.beginObject()
    writer.field("run_id", summary.runId)
    writer.field("tool_version", summary.toolVersion)
    writer.field("started_ms", summary.startedAt.millisecondsSince1970)
    writer.field("finished_ms", summary.finishedAt.millisecondsSince1970)
    writer.field("as_of_ms", summary.asOf.millisecondsSince1970)
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
    writer.key("stages")
    writer.beginArray()
    for stage in summary.stageDurations {
      writer.beginObject()
      writer.field("stage", stage.stage)
      writer.field("ms", stage.milliseconds)
      writer.endObject()
    }
    writer.endArray()
    writer.key("requests")
    writer.beginArray()
    for endpoint in summary.requests { write(endpoint, into: &writer) }
    writer.endArray()
    writer.field("team_table_file", summary.teamTableFile)
    writer.key("fail_on")
    if let failOn = summary.failOn {
      writer.beginObject()
      writer.field("expression", failOn.expression)
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
    func impacts(_ name: String, _ counts: [DiscrepancyCategory.Impact: Int]?) {
      guard let counts else { return }
      writer.key(name)
      writer.beginObject()
      for impact in DiscrepancyCategory.Impact.allCases {
        writer.field(impact.rawValue, counts[impact] ?? 0)
      }
      writer.endObject()
    }
    impacts("impact_counts", summary.impactCounts)
    impacts("table_impact_counts", summary.tableImpactCounts)
    if let refresh = summary.refresh { write(refresh, into: &writer) }
    if let since = summary.since { write(since, into: &writer) }
    writer.field("lost_notifications", summary.lostNotifications)
    writer.field("token_mapping", summary.tokenMapping)
    if let share = summary.rateShare { writer.field("rate_share", share) }
    writeAudit(summary, into: &writer)
    writer.endObject()
    return writer.string
  }

  private static func write(_ refresh: RefreshFacts, into writer: inout JSONWriter) {
    writer.key("refresh")
    writer.beginObject()
    writer.field("notification_pages", refresh.notificationPages)
    writer.field("notifications_read", refresh.notificationsRead)
    writer.field("lost_notifications_found", refresh.lostNotificationsFound)
    writer.key("due_by_reason")
    writer.beginObject()
    for (reason, count) in refresh.dueByReason.sorted(by: { $0.key < $1.key }) {
      writer.field(reason, count)
    }
    writer.endObject()
    writer.field("refreshed", refresh.refreshed)
    writer.field("history_pages", refresh.historyPages)
    writer.field("status_calls", refresh.statusCalls)
    writer.field("failed", refresh.failed)
    writer.field("still_due", refresh.stillDue)
    writer.field("requests", refresh.requests)
    writer.field("budget_exhausted", refresh.budgetExhausted)
    writer.key("warnings")
    writer.beginArray()
    for warning in refresh.warnings { writer.value(warning) }
    writer.endArray()
    writer.key("watermarks_ms")
    writer.beginObject()
    for (environment, instant) in refresh.watermarks.sorted(by: { $0.key < $1.key }) {
      writer.field(environment, instant.millisecondsSince1970)
    }
    writer.endObject()
    writeAudit(refresh, into: &writer)
    writer.endObject()
  }

  private static func write(_ since: RunChangeCounts, into writer: inout JSONWriter) {
    writer.key("since")
    writer.beginObject()
    writer.field("run_id", since.previousRunId)
    writer.field("as_of_ms", since.previousAsOf.millisecondsSince1970)
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
    writer.endObject()
  }

  private static func refresh(from value: JSONValue?) -> RefreshFacts? {
    guard let value, case .object = value else { return nil }
    func int(_ key: String) -> Int { Int(value[key]?.int64Value ?? 0) }
    var due: [String: Int] = [:]
    if case .object(let members)? = value["due_by_reason"] {
      for member in members { due[member.key] = Int(member.value.int64Value ?? 0) }
    }
    var watermarks: [String: Timestamp] = [:]
    if case .object(let members)? = value["watermarks_ms"] {
      for member in members {
        watermarks[member.key] = Timestamp(millisecondsSince1970: member.value.int64Value ?? 0)
      }
    }
    var warnings: [String] = []
    if case .array(let items)? = value["warnings"] { warnings = items.compactMap(\.stringValue) }
    var facts = RefreshFacts(
      notificationPages: int("notification_pages"), notificationsRead: int("notifications_read"),
      lostNotificationsFound: int("lost_notifications_found"), dueByReason: due,
      refreshed: int("refreshed"), historyPages: int("history_pages"),
      statusCalls: int("status_calls"), failed: int("failed"), stillDue: int("still_due"),
      requests: int("requests"), budgetExhausted: value["budget_exhausted"]?.stringValue,
      warnings: warnings, watermarks: watermarks)
    readAudit(into: &facts, from: value)
    return facts
  }

  private static func since(from value: JSONValue?) -> RunChangeCounts? {
    guard let value, let runId = value["run_id"]?.stringValue else { return nil }
    func counts(_ name: String) -> ChangeCounts? {
      guard let object = value[name], case .object = object else { return nil }
      var byKind: [ChangeKind: Int] = [:]
      for kind in ChangeKind.allCases { byKind[kind] = Int(object[kind.rawValue]?.int64Value ?? 0) }
      return ChangeCounts(byKind: byKind)
    }
    return RunChangeCounts(
      previousRunId: runId,
      previousAsOf: Timestamp(millisecondsSince1970: value["as_of_ms"]?.int64Value ?? 0),
      primary: counts("primary"), table: counts("table"),
      newAccounts: Int(value["new_accounts"]?.int64Value ?? 0),
      inputDifferences: {
        if case .array(let items)? = value["input_differences"] {
          return items.compactMap(\.stringValue)
        }
        return []
      }(),
      accountsWithNewFindings: value["accounts_with_new_findings"]?.int64Value.map { Int($0) })
  }

  /// One endpoint's statistics as JSON, as stored per run in `request_counters`.
  ///
  /// - Parameter endpoint: the statistics.
  /// - Returns: compact JSON text.
  public static func encode(endpoint: EndpointStatistics) -> String {
    var writer = JSONWriter()
    write(endpoint, into: &writer)
    return writer.string
  }

  private static func write(_ endpoint: EndpointStatistics, into writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("endpoint", endpoint.endpoint)
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
    if let cap = endpoint.rateCap { writer.field("rate_cap", cap) }
    if let busiest = endpoint.busiestSecond { writer.field("busiest_second", busiest) }
    writer.endObject()
  }

  /// Reads a stored summary back.
  ///
  /// - Parameter text: what ``encode(_:)`` wrote.
  /// - Returns: the summary.
  /// - Throws: ``RunRecipe/Failure`` when the text is not a summary.
  public static func decode(_ text: String) throws -> RunSummary {
    guard let value = try? JSONValue(parsing: Array(text.utf8)),
      let runId = value["run_id"]?.stringValue
    else {
      throw RunRecipe.Failure(description: "the stored run summary is unreadable")
    }
    func instant(_ key: String) -> Timestamp {
      Timestamp(millisecondsSince1970: value[key]?.int64Value ?? 0)
    }
    func int(_ object: JSONValue?, _ key: String) -> Int { Int(object?[key]?.int64Value ?? 0) }
    let store = value["app_store"]
    let inputs = value["inputs"]
    var stages: [StageDuration] = []
    if case .array(let items)? = value["stages"] {
      stages = items.map {
        StageDuration(
          stage: $0["stage"]?.stringValue ?? "", milliseconds: $0["ms"]?.int64Value ?? 0)
      }
    }
    var requests: [EndpointStatistics] = []
    if case .array(let items)? = value["requests"] {
      requests = items.map { item in
        var byStatus: [Int: Int] = [:]
        if case .object(let members)? = item["errors_by_status"] {
          for member in members {
            if let key = Int(member.key) { byStatus[key] = Int(member.value.int64Value ?? 0) }
          }
        }
        var byCode: [Int64: Int] = [:]
        if case .object(let members)? = item["errors_by_code"] {
          for member in members {
            if let key = Int64(member.key) { byCode[key] = Int(member.value.int64Value ?? 0) }
          }
        }
        var statistics = EndpointStatistics(
          endpoint: item["endpoint"]?.stringValue ?? "", requests: int(item, "requests"),
          successes: int(item, "successes"),
          failures: int(item, "failures"), retries: int(item, "retries"),
          rateLimited: int(item, "rate_limited"),
          transportErrors: int(item, "transport_errors"),
          verificationFailures: int(item, "verification_failures"),
          errorsByStatus: byStatus, errorsByCode: byCode)
        statistics.rateCap = number(item["rate_cap"])
        statistics.busiestSecond = item["busiest_second"]?.int64Value.map(Int.init)
        return statistics
      }
    }
    let failOn = value["fail_on"].flatMap { failOn -> FailOnThreshold? in
      guard let expression = failOn["expression"]?.stringValue else { return nil }
      var unevaluated: [String] = []
      if case .array(let items)? = failOn["unevaluated"] {
        unevaluated = items.compactMap(\.stringValue)
      }
      return FailOnThreshold(
        expression: expression, isCrossed: failOn["crossed"]?.boolValue ?? false,
        unevaluated: unevaluated,
        counted: failOn["counted"]?.int64Value.map { Int($0) },
        tolerated: Int(failOn["tolerated"]?.int64Value ?? 0),
        counts: failOn["counts"]?.stringValue)
    }
    var summary = RunSummary(
      runId: runId, toolVersion: value["tool_version"]?.stringValue ?? "",
      startedAt: instant("started_ms"),
      finishedAt: instant("finished_ms"), asOf: instant("as_of_ms"),
      appStore: AppStoreSource(
        isSimulated: store?["simulated"]?.boolValue ?? false,
        description: store?["description"]?.stringValue ?? "",
        environment: store?["environment"]?.stringValue ?? ""),
      inputs: RunInputs(
        recordsRead: int(inputs, "records_read"), recordsAccepted: int(inputs, "records_accepted"),
        // Runs recorded before partial records existed have no such member: none were partial.
        recordsPartial: int(inputs, "records_partial"),
        recordsQuarantined: int(inputs, "records_quarantined"), accounts: int(inputs, "accounts")),
      stageDurations: stages, requests: requests,
      teamTableFile: value["team_table_file"]?.stringValue, failOn: failOn)
    summary.refresh = refresh(from: value["refresh"])
    summary.since = since(from: value["since"])
    summary.lostNotifications = Int(value["lost_notifications"]?.int64Value ?? 0)
    summary.tokenMapping = value["token_mapping"]?.stringValue
    func impacts(_ name: String) -> [DiscrepancyCategory.Impact: Int]? {
      guard case .object(let members)? = value[name] else { return nil }
      var counts: [DiscrepancyCategory.Impact: Int] = [:]
      for member in members {
        if let impact = DiscrepancyCategory.Impact(rawValue: member.key) {
          counts[impact] = Int(member.value.int64Value ?? 0)
        }
      }
      return counts
    }
    summary.impactCounts = impacts("impact_counts") ?? [:]
    summary.tableImpactCounts = impacts("table_impact_counts")
    summary.command = value["command"]?.stringValue
    if case .array(let items)? = value["command_line"] {
      summary.commandLine = items.compactMap(\.stringValue)
    }
    summary.exitCode = value["exit_code"]?.int64Value.map { Int32(truncatingIfNeeded: $0) }
    if case .array(let items)? = value["used_inputs"] {
      summary.usedInputs = items.compactMap { item in
        guard let name = item["name"]?.stringValue, let value = item["value"]?.stringValue,
          let origin = item["origin"]?.stringValue.flatMap(UsedInput.Origin.init(rawValue:))
        else { return nil }
        return UsedInput(
          name: name, value: value, origin: origin, detail: item["detail"]?.stringValue)
      }
    }
    summary.rateShare = number(value["rate_share"])
    readAudit(into: &summary, from: value)
    return summary
  }

  /// A JSON number as a `Double`, or `nil` when the value is absent or not a number.
  private static func number(_ value: JSONValue?) -> Double? {
    guard case .number(let text)? = value else { return nil }
    return Double(text)
  }
}
