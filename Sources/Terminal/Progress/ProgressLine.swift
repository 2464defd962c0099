/// Renders snapshots as text: a compact line for a terminal, a plain sentence for logs.
enum ProgressLine {
  /// `backfill  12,345/20,000 customers  61.7%  412.3/s  ETA 0:18  429s 3  retries 12`,
  /// cut to `width` so that rewriting it in place never wraps.
  static func live(_ snapshot: ProgressSnapshot, width: Int) -> String {
    var parts = [snapshot.stage, amount(snapshot, grouped: true)]
    if let fraction = snapshot.fractionCompleted {
      parts.append(NumberFormatting.percent(fraction))
    }
    if let rate = snapshot.recentRate {
      parts.append(NumberFormatting.decimal(rate, grouped: true) + "/s")
    }
    if let remaining = snapshot.estimatedTimeRemaining {
      parts.append("ETA " + DurationFormatting.clock(remaining))
    }
    parts += snapshot.counters.map { "\($0.name) \(NumberFormatting.grouped($0.value))" }
    return fitted(parts.joined(separator: "  "), width: width)
  }

  /// `backfill  20,000/20,000 customers  100.0%  398.1/s  in 0:50  429s 3`: the average rate
  /// and the time taken replace the recent rate and the ETA.
  static func liveSummary(_ snapshot: ProgressSnapshot, width: Int) -> String {
    var parts = [snapshot.stage, amount(snapshot, grouped: true)]
    if let fraction = snapshot.fractionCompleted {
      parts.append(NumberFormatting.percent(fraction))
    }
    if let rate = snapshot.averageRate {
      parts.append(NumberFormatting.decimal(rate, grouped: true) + "/s")
    }
    parts.append("in " + DurationFormatting.clock(snapshot.elapsed))
    parts += snapshot.counters.map { "\($0.name) \(NumberFormatting.grouped($0.value))" }
    return fitted(parts.joined(separator: "  "), width: width)
  }

  /// `[backfill] 12345/20000 customers (61.7%), 412.3/s, ETA 18s, 429s=3 retries=12`.
  static func log(_ snapshot: ProgressSnapshot) -> String {
    var line = "[\(snapshot.stage)] " + amount(snapshot, grouped: false)
    if let fraction = snapshot.fractionCompleted {
      line += " (\(NumberFormatting.percent(fraction)))"
    }
    var details: [String] = []
    if let rate = snapshot.recentRate {
      details.append(NumberFormatting.decimal(rate) + "/s")
    }
    if let remaining = snapshot.estimatedTimeRemaining {
      details.append("ETA " + DurationFormatting.compact(remaining))
    }
    return line + tail(details, snapshot.counters)
  }

  /// `[backfill] finished 20000/20000 customers (100.0%) in 50s, 398.1/s, 429s=3`, or
  /// `[refresh] stopped at 1/10 customers (10.0%) …` when the stage ended with items left.
  static func logSummary(_ snapshot: ProgressSnapshot) -> String {
    let ended = snapshot.total.map { snapshot.completed < $0 } == true ? "stopped at " : "finished "
    var line = "[\(snapshot.stage)] " + ended + amount(snapshot, grouped: false)
    if let fraction = snapshot.fractionCompleted {
      line += " (\(NumberFormatting.percent(fraction)))"
    }
    line += " in " + DurationFormatting.compact(snapshot.elapsed)
    let rate = snapshot.averageRate.map { [NumberFormatting.decimal($0) + "/s"] } ?? []
    return line + tail(rate, snapshot.counters)
  }

  /// `12,345/20,000 customers`, or `12,345 customers` without a total.
  private static func amount(_ snapshot: ProgressSnapshot, grouped: Bool) -> String {
    func number(_ value: Int) -> String {
      grouped ? NumberFormatting.grouped(value) : String(value)
    }
    let total = snapshot.total.map { "/" + number($0) } ?? ""
    return number(snapshot.completed) + total + " " + snapshot.unit
  }

  /// `, 412.3/s, ETA 18s, 429s=3 retries=12`.
  private static func tail(_ details: [String], _ counters: [ProgressCounter]) -> String {
    let counterText = counters.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
    let all = details + (counterText.isEmpty ? [] : [counterText])
    return all.isEmpty ? "" : ", " + all.joined(separator: ", ")
  }

  /// The line cut to leave the terminal's last column free: writing into it makes some
  /// terminals wrap, and a wrapped line can no longer be rewritten with a carriage return.
  private static func fitted(_ line: String, width: Int) -> String {
    let limit = max(width - 1, 1)
    return line.count <= limit ? line : String(line.prefix(limit))
  }
}
