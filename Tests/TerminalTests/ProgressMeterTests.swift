import Terminal
import Testing

@Suite("Progress meter")
struct ProgressMeterTests {
  private let clock = TestClock()
  private let output = CapturedOutput()

  private func meter(
    total: Int? = 20_000,
    counters: [String] = ["429s", "retries", "failures"],
    style: ProgressMeter.Style
  ) -> ProgressMeter {
    let clock = clock
    let output = output
    return ProgressMeter(
      stage: "backfill", unit: "customers", total: total, counters: counters, style: style,
      rateWindow: .seconds(10), now: { clock.now }, write: { output.write($0) })
  }

  @Test("Off a terminal: a log line per interval with the recent rate, then a summary")
  func logLines() {
    let meter = meter(style: .log(interval: .seconds(10)))
    for second in 1...25 {
      clock.advance(by: .seconds(1))
      // 400 a second for ten seconds, then 100 a second: the rate must follow the slowdown.
      if second <= 20 {
        meter.advance(by: second <= 10 ? 400 : 100)
      }
      if second == 3 {
        meter.increment("429s")
      }
      if second == 12 {
        meter.increment("retries", by: 2)
      }
      if second == 15 {
        meter.increment("timeouts")
      }
    }
    meter.finish()
    #expect(
      output.writes == [
        "[backfill] 4000/20000 customers (20.0%), 400.0/s, ETA 40s, "
          + "429s=1 retries=0 failures=0\n",
        "[backfill] 5000/20000 customers (25.0%), 100.0/s, ETA 2m 30s, "
          + "429s=1 retries=2 failures=0 timeouts=1\n",
        "[backfill] stopped at 5000/20000 customers (25.0%) in 25s, 200.0/s, "
          + "429s=1 retries=2 failures=0 timeouts=1\n",
      ])
  }

  @Test("On a terminal: one line rewritten at most ten times a second, then a final line")
  func liveLine() {
    let meter = meter(total: 1_000_000, counters: ["429s"], style: .live(width: 100))
    for _ in 1...20 {
      clock.advance(by: .milliseconds(50))
      meter.advance(by: 1000)
    }
    meter.finish()
    let writes = output.writes
    // Updates every 50 ms; lines at 50, 150, ..., 950 ms, then the final line.
    #expect(writes.count == 11)
    #expect(writes.dropLast().allSatisfy { $0.hasPrefix("\r") && $0.hasSuffix("\u{1B}[K") })
    #expect(
      writes.first
        == "\rbackfill  1,000/1,000,000 customers  0.1%  20,000.0/s  ETA 0:49  429s 0\u{1B}[K")
    #expect(
      writes[9]
        == "\rbackfill  19,000/1,000,000 customers  1.9%  20,000.0/s  ETA 0:49  429s 0\u{1B}[K")
    #expect(
      writes.last
        == "\rbackfill  20,000/1,000,000 customers  2.0%  20,000.0/s  in 0:01  429s 0\u{1B}[K\n")
  }

  @Test("The live line is cut to leave the terminal's last column free")
  func liveLineFitsWidth() throws {
    let meter = meter(style: .live(width: 30))
    clock.advance(by: .seconds(1))
    meter.advance(by: 12_345)
    let line = try #require(output.writes.first)
    #expect(line == "\rbackfill  12,345/20,000 custo\u{1B}[K")
  }

  @Test("Without a total there is no percentage and no ETA")
  func unknownTotal() {
    let meter = meter(total: nil, counters: [], style: .log(interval: .seconds(5)))
    clock.advance(by: .seconds(5))
    meter.advance(by: 50)
    meter.finish()
    #expect(
      output.writes == [
        "[backfill] 50 customers, 10.0/s\n",
        "[backfill] finished 50 customers in 5s, 10.0/s\n",
      ])
  }

  @Test("refresh() while nothing finishes lets the rate fall and the ETA disappear")
  func stall() {
    let meter = meter(counters: [], style: .log(interval: .seconds(10)))
    clock.advance(by: .seconds(10))
    meter.advance(by: 1000)
    clock.advance(by: .seconds(20))
    meter.refresh()
    #expect(
      output.writes == [
        "[backfill] 1000/20000 customers (5.0%), 100.0/s, ETA 3m 10s\n",
        "[backfill] 1000/20000 customers (5.0%), 0.0/s\n",
      ])
  }

  @Test("A message on a terminal clears the live line and draws it again below")
  func messageDuringLiveLine() {
    let meter = meter(total: 100, counters: [], style: .live(width: 80))
    clock.advance(by: .seconds(1))
    meter.advance(by: 10)
    meter.log("warning: account 42 has no transactions")
    #expect(
      output.writes == [
        "\rbackfill  10/100 customers  10.0%  10.0/s  ETA 0:09\u{1B}[K",
        "\r\u{1B}[Kwarning: account 42 has no transactions\n",
        "\rbackfill  10/100 customers  10.0%  10.0/s  ETA 0:09\u{1B}[K",
      ])
  }

  @Test("A message off a terminal is a plain line")
  func messageInLog() {
    let meter = meter(style: .log())
    meter.log("resuming run 7")
    #expect(output.writes == ["resuming run 7\n"])
  }

  @Test("finish() writes once; later updates draw nothing")
  func finishOnce() {
    let meter = meter(total: 10, counters: [], style: .live(width: 80))
    clock.advance(by: .seconds(2))
    meter.finish()
    meter.finish()
    clock.advance(by: .seconds(1))
    meter.advance()
    #expect(output.writes == ["\rbackfill  0/10 customers  0.0%  0.0/s  in 0:02\u{1B}[K\n"])
  }

  @Test("setTotal() adds the percentage and ETA once the total is known")
  func lateTotal() {
    let meter = meter(total: nil, counters: [], style: .log(interval: .seconds(1)))
    clock.advance(by: .seconds(1))
    meter.setTotal(40)
    meter.advance(by: 10)
    #expect(meter.snapshot.total == 40)
    #expect(output.writes == ["[backfill] 0/40 customers (0.0%), 0.0/s\n"])
  }

  @Test("Updates from many tasks at once are all counted")
  func concurrentUpdates() async {
    let meter = meter(total: 8000, counters: ["retries"], style: .log())
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for index in 0..<1000 {
            meter.advance()
            if index % 100 == 0 {
              meter.increment("retries")
            }
          }
        }
      }
    }
    let snapshot = meter.snapshot
    #expect(snapshot.completed == 8000)
    #expect(snapshot.counters == [ProgressCounter(name: "retries", value: 80)])
  }

  @Test("The automatic style follows the stream")
  func automaticStyle() {
    let terminal = TerminalCapabilities(isTerminal: true, width: 120, allowsColor: true)
    let pipe = TerminalCapabilities(isTerminal: false, width: 80, allowsColor: false)
    #expect(ProgressMeter.Style.automatic(for: terminal) == .live(width: 120))
    #expect(
      ProgressMeter.Style.automatic(for: pipe, logInterval: .seconds(30))
        == .log(interval: .seconds(30)))
  }
}
