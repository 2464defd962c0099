import Entitlements

/// A report's "what to do first": one ``ReportAction`` per thing to act on, ordered by money
/// at stake.
///
/// The order: lines that need something done before the one that does not (differences an old
/// snapshot explains); among them, by what their differing keys are worth per month in the
/// run's main currency (the currency with the most recurring revenue at stake across the lines;
/// amounts are never converted), then by one-time value in it, then in the fixed order of the
/// kinds: logic differences that lose access, gain access, change terms, the team table, lost
/// notifications, accounts that need attention, undetermined causes.
enum ActionList {
  /// The lines of a run, in order; empty when nothing differs.
  ///
  /// - Parameters:
  ///   - statistics: the run's aggregates.
  ///   - summary: the run's facts (its id names the replay command).
  ///   - lostNotifications: notifications Apple never delivered that the run reports.
  static func of(
    _ statistics: ReportStatistics, summary: RunSummary, lostNotifications: Int
  ) -> [ReportAction] {
    let tally = statistics.actions
    var lines: [ReportAction] = []
    for bucket in [ActionBucket.logicLosesAccess, .logicGainsAccess, .logicChangesTerms] {
      let count = tally.count(bucket)
      guard count > 0 else { continue }
      let verb: String
      switch bucket {
      case .logicLosesAccess: verb = count == 1 ? "loses access" : "lose access"
      case .logicGainsAccess: verb = count == 1 ? "gains access" : "gain access"
      default: verb = count == 1 ? "changes terms" : "change terms"
      }
      lines.append(
        line(
          bucket, tally, subject: "\(ReportFormatting.accounts(count)) \(verb)",
          reason: "because of a logic difference", advice: "fix the logic"))
    }
    if tally.count(.tableWrong) > 0 {
      lines.append(
        ReportAction(
          kind: .accounts(.tableWrong), count: tally.count(.tableWrong),
          money: tally.value(.tableWrong),
          subject:
            "Your table is wrong today for \(ReportFormatting.accounts(tally.count(.tableWrong)))",
          reason: "", advice: "fix these rows", target: .filter(filter(.tableWrong)), command: nil,
          needsAction: true))
    }
    if lostNotifications > 0 {
      lines.append(
        ReportAction(
          kind: .lostNotifications, count: lostNotifications, money: [:],
          subject:
            "\(ReportFormatting.count(lostNotifications)) notification\(lostNotifications == 1 ? "" : "s") "
            + "never reached your server",
          reason: "", advice: "replay them", target: .section("lost-notifications"),
          command: replayCommand(runId: summary.runId), needsAction: true))
    }
    if tally.count(.needsAttention) > 0 {
      let count = tally.count(.needsAttention)
      var attention = line(
        .needsAttention, tally,
        subject: "\(ReportFormatting.accounts(count)) \(count == 1 ? "needs" : "need") attention",
        reason: "", advice: "look at their evidence")
      attention.detail = attentionBreakdown(tally)
      lines.append(attention)
    }
    if tally.count(.undetermined) > 0 {
      let count = tally.count(.undetermined)
      lines.append(
        line(
          .undetermined, tally,
          subject: "\(ReportFormatting.accounts(count)) \(count == 1 ? "differs" : "differ")",
          reason: "and no capture instant tells a logic difference from an old receipt",
          advice: "look at their evidence"))
    }
    if tally.count(.freshness) > 0 {
      let count = tally.count(.freshness)
      var freshness = line(
        .freshness, tally,
        subject: "\(ReportFormatting.accounts(count)) \(count == 1 ? "differs" : "differ")",
        reason: "only because the stored receipts are old", advice: "no action")
      freshness.needsAction = false
      lines.append(freshness)
    }
    return ordered(lines)
  }

  /// `receipt-migrate notifications replay --to URL --run <run>`.
  static func replayCommand(runId: String) -> String {
    "receipt-migrate notifications replay --to URL --run \(runId)"
  }

  /// The report.html filter that lists a bucket's accounts.
  static func filter(_ bucket: ActionBucket) -> String {
    "action=\(identifier(bucket))"
  }

  /// The identifier report.html's rows carry for a bucket: `data-action` for the primary
  /// buckets, `data-taction` for ``ActionBucket/tableWrong``.
  static func identifier(_ bucket: ActionBucket) -> String {
    switch bucket {
    case .logicLosesAccess: return "logic_loses_access"
    case .logicGainsAccess: return "logic_gains_access"
    case .logicChangesTerms: return "logic_changes_terms"
    case .tableWrong: return "table_wrong"
    case .needsAttention: return "needs_attention"
    case .undetermined: return "undetermined"
    case .freshness: return "freshness"
    }
  }

  /// A short label for a bucket, for report.html's filter menu: "Lose access: logic difference".
  static func label(_ bucket: ActionBucket) -> String {
    switch bucket {
    case .logicLosesAccess: return "Lose access: logic difference"
    case .logicGainsAccess: return "Gain access: logic difference"
    case .logicChangesTerms: return "Change terms: logic difference"
    case .tableWrong: return "Your table wrong today"
    case .needsAttention: return "Need attention"
    case .undetermined: return "Cause undetermined"
    case .freshness: return "Old receipts only (no action)"
    }
  }

  private static func line(
    _ bucket: ActionBucket, _ tally: ActionTally, subject: String, reason: String, advice: String
  ) -> ReportAction {
    ReportAction(
      kind: .accounts(bucket), count: tally.count(bucket), money: tally.value(bucket),
      subject: subject, reason: reason, advice: advice, target: .filter(filter(bucket)),
      command: nil, needsAction: true)
  }

  /// "38 no_transaction_id, 12 shared_apple_account, 10 sandbox_only and 19 more": the largest
  /// categories of the accounts that need attention.
  private static func attentionBreakdown(_ tally: ActionTally) -> String {
    let categories = tally.attention.sorted {
      $0.value != $1.value ? $0.value > $1.value : DisplayOrder.precedes($0.key, $1.key)
    }
    let named = categories.prefix(3).map {
      "\(ReportFormatting.count($0.value)) \($0.key.rawValue)"
    }
    let rest = categories.dropFirst(3).reduce(0) { $0 + $1.value }
    return named.joined(separator: ", ")
      + (rest > 0 ? " and \(ReportFormatting.count(rest)) more" : "")
  }

  /// The lines in the order the type's documentation gives.
  static func ordered(_ lines: [ReportAction]) -> [ReportAction] {
    var totals: [String: MoneyAtStake.Amounts] = [:]
    for line in lines {
      for (currency, amounts) in line.money {
        var total: MoneyAtStake.Amounts? = totals[currency]
        MoneyAtStake.merge(amounts, into: &total)
        totals[currency] = total
      }
    }
    let main = totals.max { lhs, rhs in
      if lhs.value.recurringMonthly != rhs.value.recurringMonthly {
        return lhs.value.recurringMonthly < rhs.value.recurringMonthly
      }
      if lhs.value.oneTime != rhs.value.oneTime { return lhs.value.oneTime < rhs.value.oneTime }
      return lhs.key > rhs.key
    }?.key
    return lines.enumerated().sorted { lhs, rhs in
      let (left, right) = (lhs.element, rhs.element)
      if left.needsAction != right.needsAction { return left.needsAction }
      let leftValue = main.flatMap { left.money[$0] } ?? MoneyAtStake.Amounts()
      let rightValue = main.flatMap { right.money[$0] } ?? MoneyAtStake.Amounts()
      if leftValue.recurringMonthly != rightValue.recurringMonthly {
        return leftValue.recurringMonthly > rightValue.recurringMonthly
      }
      if leftValue.oneTime != rightValue.oneTime { return leftValue.oneTime > rightValue.oneTime }
      return lhs.offset < rhs.offset
    }.map(\.element)
  }
}
