import AppStoreServerAPI
import AppStoreSimulator
import Testing

@Suite("Simulator server: fault, latency and rate-limit specifications")
struct ServerSpecificationTests {
  @Test("a fault specification sets rates per endpoint over the all-endpoint ones")
  func faults() throws {
    let plan = try FaultPlan.parse(
      faults: "history:drop=0.05, status:5000001=0.1, truncate=1%, 500=0.02, history:truncate=0",
      latency: nil)
    #expect(
      plan.faults(for: .transactionHistory).rates == [
        .dropConnection: 0.05, .truncateBody: 0, .generalInternal: 0.02,
      ])
    #expect(
      plan.faults(for: .subscriptionStatuses).rates == [
        .generalInternalRetryable: 0.1, .truncateBody: 0.01, .generalInternal: 0.02,
      ])
    #expect(plan.faults(for: .orderLookup).rates == [.truncateBody: 0.01, .generalInternal: 0.02])
    #expect(FaultPlan.none.faults(for: .transactionHistory).isEmpty)
  }

  @Test("a latency specification sets a distribution per endpoint over the all-endpoint one")
  func latencies() throws {
    let plan = try FaultPlan.parse(
      faults: nil, latency: "20ms±5ms, history:50ms~10ms, notifications:1.5s, order:3ms+-1ms")
    #expect(
      plan.faults(for: .subscriptionStatuses).latency == .uniform(milliseconds: 20, spread: 5))
    #expect(
      plan.faults(for: .transactionHistory).latency == .normal(mean: 50, standardDeviation: 10))
    #expect(plan.faults(for: .notificationHistory).latency == .fixed(milliseconds: 1500))
    #expect(plan.faults(for: .orderLookup).latency == .uniform(milliseconds: 3, spread: 1))
    #expect(LatencyDistribution.fixed(milliseconds: 20).sample { 0.5 } == .milliseconds(20))
    #expect(
      LatencyDistribution.uniform(milliseconds: 20, spread: 5).sample { 0 } == .milliseconds(15))
    #expect(
      LatencyDistribution.normal(mean: 1, standardDeviation: 100).sample { 0.99 } >= .zero,
      "never negative")
    #expect(LatencyDistribution.uniform(milliseconds: 20, spread: 5).description == "20ms±5ms")
  }

  static let invalid: [(String?, String?, String)] = [
    ("history:explode=0.1", nil, "KIND"),
    ("checkout:drop=0.1", nil, "not an endpoint"),
    ("drop=2", nil, "probability"),
    ("drop=0.6,truncate=0.6", nil, "add up"),
    ("drop", nil, "KIND=RATE"),
    (nil, "fast", "latency"),
    (nil, "20", "latency"),
    (nil, "history:-5ms", "latency"),
  ]

  @Test("an invalid specification names what is wrong", arguments: invalid)
  func invalidSpecification(_ faults: String?, _ latency: String?, _ hint: String) {
    #expect {
      _ = try FaultPlan.parse(faults: faults, latency: latency)
    } throws: { error in
      (error as? SimulatorSpecificationError)?.message.contains(hint) == true
    }
  }

  @Test("a rate-limit specification sets the mode, rates and the sandbox share")
  func rateLimits() throws {
    let limits = try SimulatorRateLimits.parse(
      "hourly-rolling, history=100, sandbox:status=2, sandbox-share=0.5")
    #expect(limits.isEnabled && limits.mode == .hourly(.rolling))
    #expect(limits.requestsPerSecond(for: .transactionHistory, in: .production) == 100)
    #expect(limits.requestsPerSecond(for: .transactionHistory, in: .sandbox) == 50)
    #expect(limits.requestsPerSecond(for: .subscriptionStatuses, in: .sandbox) == 2)
    #expect(limits.requestsPerSecond(for: .orderLookup, in: .production) == 10)
    #expect(try SimulatorRateLimits.parse("off").isEnabled == false)
    #expect(try SimulatorRateLimits.parse("hourly").mode == .hourly(.clockHour))
    for wrong in ["history=0", "history=fast", "sometimes", "ledger=5"] {
      #expect(throws: SimulatorSpecificationError.self) {
        _ = try SimulatorRateLimits.parse(wrong)
      }
    }
  }
}
