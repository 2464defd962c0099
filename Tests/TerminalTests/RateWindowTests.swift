import Testing

@testable import Terminal

@Suite("Sliding rate window")
struct RateWindowTests {
  private let start = ContinuousClock.now

  @Test("The rate covers the last span only, not the time since the start")
  func slidingWindow() throws {
    var window = RateWindow(span: .seconds(10), start: start)
    var count = 0
    for second in 1...60 {
      count += second <= 30 ? 1000 : 10
      window.record(count, at: start + .seconds(second))
    }
    let rate = try #require(window.rate(at: start + .seconds(60), count: count))
    #expect(rate == 10)
  }

  @Test("There is no rate before time passes")
  func noElapsedTime() {
    let window = RateWindow(span: .seconds(10), start: start)
    #expect(window.rate(at: start, count: 0) == nil)
  }

  @Test("Memory stays bounded however often progress is recorded")
  func boundedSamples() {
    var window = RateWindow(span: .seconds(10), start: start)
    for tick in 1...100_000 {
      window.record(tick, at: start + .milliseconds(tick))
    }
    // One sample per tenth of the span, plus the one at the window's start.
    #expect(window.sampleCount <= 12)
    #expect(window.rate(at: start + .milliseconds(100_000), count: 100_000) == 1000)
  }
}
