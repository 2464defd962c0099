import Terminal
import Testing

@Suite("Progress arithmetic")
struct ProgressSnapshotTests {
  private func snapshot(
    completed: Int,
    total: Int?,
    elapsed: Duration = .seconds(30),
    recentRate: Double?
  ) -> ProgressSnapshot {
    ProgressSnapshot(
      stage: "compare", unit: "accounts", completed: completed, total: total, counters: [],
      elapsed: elapsed, recentRate: recentRate)
  }

  @Test(
    "ETA is the remaining work over the recent rate",
    arguments: [
      (12_345, 20_000 as Int?, 412.3 as Double?, Duration.milliseconds(18_566) as Duration?),
      (0, 100, 10, .seconds(10)),
      (100, 100, 10, .zero),
      (120, 100, 10, .zero),
      (50, nil, 10, nil),
      (50, 100, 0, nil),
      (50, 100, nil, nil),
      (0, 1_000_000_000, 0.001, nil),
    ])
  func estimatedTimeRemaining(completed: Int, total: Int?, rate: Double?, expected: Duration?) {
    let estimate = snapshot(completed: completed, total: total, recentRate: rate)
      .estimatedTimeRemaining
    #expect(estimate == expected)
  }

  @Test(
    "Fraction completed needs a positive total",
    arguments: [
      (12_345, 20_000 as Int?, 0.617_25 as Double?),
      (0, 0, nil),
      (5, nil, nil),
    ])
  func fractionCompleted(completed: Int, total: Int?, expected: Double?) {
    #expect(
      snapshot(completed: completed, total: total, recentRate: nil).fractionCompleted == expected)
  }

  @Test("The average rate is over the whole stage")
  func averageRate() {
    #expect(snapshot(completed: 600, total: nil, recentRate: 5).averageRate == 20)
    #expect(
      snapshot(completed: 600, total: nil, elapsed: .zero, recentRate: nil).averageRate == nil)
  }
}
