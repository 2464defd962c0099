import AppStoreServerAPI
import Chronology
import JSON
import Synchronization
import Testing

@Suite("Rate limiting, concurrency and counters")
struct ResilienceTests {
  @Test("defaults are Apple's documented limits, sandbox at 10 %, all configurable")
  func defaults() {
    let limits = RateLimits.appleDefaults
    #expect(limits.requestsPerSecond(for: .transactionHistory, in: .production) == 50)
    #expect(limits.requestsPerSecond(for: .subscriptionStatuses, in: .production) == 50)
    #expect(limits.requestsPerSecond(for: .setAppAccountToken, in: .production) == 20)
    #expect(limits.requestsPerSecond(for: .orderLookup, in: .production) == 10)
    #expect(limits.requestsPerSecond(for: .refundHistory, in: .production) == 10)
    #expect(limits.requestsPerSecond(for: .transactionHistory, in: .sandbox) == 5)
    let custom = RateLimits(production: [.transactionHistory: 80], sandbox: [.orderLookup: 3])
    #expect(custom.requestsPerSecond(for: .transactionHistory, in: .production) == 80)
    #expect(custom.requestsPerSecond(for: .transactionHistory, in: .sandbox) == 8)
    #expect(custom.requestsPerSecond(for: .orderLookup, in: .sandbox) == 3)
  }

  @Test("a share caps every limit, configured ones included, and the busiest second is measured")
  func share() {
    let limits = RateLimits(production: [.transactionHistory: 80], share: 0.5)
    #expect(limits.requestsPerSecond(for: .transactionHistory, in: .production) == 40)
    #expect(limits.requestsPerSecond(for: .subscriptionStatuses, in: .production) == 25)
    #expect(limits.requestsPerSecond(for: .orderLookup, in: .sandbox) == 0.5)
    let clock = ManualClock(1_000_000)
    let limiter = EndpointRateLimiter(limits: limits, now: { clock.now })
    let slots = (0..<100).map { _ in limiter.reserve(.subscriptionStatuses, in: .production) }
    // 25 a second: 40 ms apart, so 25 slots in each second of the clock.
    #expect(slots[1].milliseconds(since: slots[0]) == 40)
    #expect(limiter.busiestSecond(of: .subscriptionStatuses, in: .production) == 25)
    #expect(limiter.busiestSecond(of: .transactionHistory, in: .production) == 0)
  }

  @Test("requests are paced at the limit, per endpoint and environment")
  func pacing() {
    let clock = ManualClock(1_000_000)
    let limiter = EndpointRateLimiter(limits: .appleDefaults, now: { clock.now })
    let production = (0..<5).map { _ in limiter.reserve(.transactionHistory, in: .production) }
    #expect(production.map { $0.millisecondsSince1970 - 1_000_000 } == [0, 20, 40, 60, 80])
    let sandbox = (0..<3).map { _ in limiter.reserve(.transactionHistory, in: .sandbox) }
    #expect(sandbox.map { $0.millisecondsSince1970 - 1_000_000 } == [0, 200, 400])
    // Another endpoint has its own pace.
    #expect(
      limiter.reserve(.subscriptionStatuses, in: .production).millisecondsSince1970 == 1_000_000)
    // Time passing frees the slots; an idle limiter does not bank unused ones beyond the burst.
    clock.advance(by: 10_000)
    #expect(limiter.reserve(.transactionHistory, in: .production) == clock.now)
    #expect(
      limiter.reserve(.transactionHistory, in: .production) == clock.now.adding(milliseconds: 20))
  }

  @Test("a burst setting lets that many requests go at once, then paces")
  func burst() {
    let clock = ManualClock(0)
    let limiter = EndpointRateLimiter(limits: RateLimits(burst: 3), now: { clock.now })
    let slots = (0..<5).map { _ in
      limiter.reserve(.orderLookup, in: .production).millisecondsSince1970
    }
    #expect(slots == [0, 0, 0, 100, 200])
  }

  @Test("concurrent callers share one pace: every slot is handed out once")
  func sharedByConcurrentCallers() async {
    let clock = ManualClock(0)
    let limiter = EndpointRateLimiter(limits: .appleDefaults, now: { clock.now })
    let slots = await withTaskGroup(of: Int64.self) { group in
      for _ in 0..<64 {
        group.addTask {
          limiter.reserve(.transactionHistory, in: .production).millisecondsSince1970
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(slots.sorted() == (0..<64).map { Int64($0) * 20 })
  }

  @Test("a 429 halves the rate, holds requests until Retry-After, and successes recover it")
  func slowDownAndRecover() {
    let clock = ManualClock(0)
    let limiter = EndpointRateLimiter(limits: .appleDefaults, now: { clock.now })
    _ = limiter.reserve(.transactionHistory, in: .production)
    limiter.recordRateLimited(
      .transactionHistory, in: .production, retryAfter: Timestamp(millisecondsSince1970: 5_000))
    #expect(limiter.currentRate(of: .transactionHistory, in: .production) == 25)
    let next = (0..<3).map { _ in
      limiter.reserve(.transactionHistory, in: .production).millisecondsSince1970
    }
    #expect(next == [5_000, 5_040, 5_080])
    limiter.recordRateLimited(.transactionHistory, in: .production, retryAfter: nil)
    #expect(limiter.currentRate(of: .transactionHistory, in: .production) == 12.5)
    for _ in 0..<25 { limiter.recordSuccess(.transactionHistory, in: .production) }
    #expect(abs(limiter.currentRate(of: .transactionHistory, in: .production) - 25) < 1e-9)
    for _ in 0..<100 { limiter.recordSuccess(.transactionHistory, in: .production) }
    #expect(limiter.currentRate(of: .transactionHistory, in: .production) == 50)
    // Repeated 429s never stop the endpoint entirely.
    for _ in 0..<20 {
      limiter.recordRateLimited(.transactionHistory, in: .production, retryAfter: nil)
    }
    #expect(limiter.currentRate(of: .transactionHistory, in: .production) == 2.5)
  }

  /// A slot later than the caller can wait for is not reserved, so callers that give up do not
  /// push the others back; a `Retry-After` at the end of 64 bits holds without trapping.
  @Test("a slot past the latest acceptable instant is refused unreserved, even at Int64.max")
  func refusedSlots() {
    let clock = ManualClock(0)
    let limiter = EndpointRateLimiter(limits: .appleDefaults, now: { clock.now })
    limiter.recordRateLimited(
      .transactionHistory, in: .production, retryAfter: Timestamp(millisecondsSince1970: 60_000))
    let latest = Timestamp(millisecondsSince1970: 1_000)
    for _ in 0..<3 {
      #expect(
        limiter.reserve(.transactionHistory, in: .production, notAfter: latest)
          == .tooLate(Timestamp(millisecondsSince1970: 60_000)))
    }
    // Nothing was reserved by the refusals: the first slot is still the Retry-After itself.
    #expect(limiter.reserve(.transactionHistory, in: .production).millisecondsSince1970 == 60_000)
    limiter.recordRateLimited(
      .subscriptionStatuses, in: .production, retryAfter: .distantFuture)
    #expect(
      limiter.reserve(.subscriptionStatuses, in: .production, notAfter: latest)
        == .tooLate(.distantFuture))
    #expect(limiter.reserve(.subscriptionStatuses, in: .production) == .distantFuture)
  }

  @Test("a client paces its requests through the limiter and its clock")
  func clientPacing() async throws {
    let transaction = try ClientHarness.sign(Sample.transaction(environment: .sandbox))
    let harness = try ClientHarness(
      rateLimits: .appleDefaults,
      transport: ScriptedTransport { _, _ in
        Answer.json {
          $0.beginObject()
          $0.field("signedTransactionInfo", transaction)
          $0.endObject()
        }
      })
    for _ in 0..<4 {
      _ = try await harness.client.transactionInfo("1", environment: .sandbox)
    }
    // Sandbox transaction info: 5 per second, and the manual clock only moves when slept.
    #expect(harness.clock.sleeps == [200, 200, 200])
  }

  @Test("at most the configured number of requests are in flight, however many tasks call")
  func concurrencyBound() async throws {
    let transaction = try ClientHarness.sign(Sample.transaction())
    let harness = try ClientHarness(
      maximumConcurrentRequests: 4,
      transport: ScriptedTransport { _, _ in
        Answer.json {
          $0.beginObject()
          $0.field("signedTransactionInfo", transaction)
          $0.endObject()
        }
      })
    let client = harness.client
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<64 {
        group.addTask {
          _ = try await client.transactionInfo(String(index), environment: .production)
        }
      }
      try await group.waitForAll()
    }
    #expect(harness.transport.requests.count == 64)
    #expect(harness.transport.maximumInFlight <= 4)
    #expect(harness.transport.maximumInFlight >= 1)
    #expect(client.concurrencyLimiter.inFlight == 0)
    #expect(client.counters.snapshot()[.transactionInfo].successes == 64)
  }

  @Test("a waiter cancelled in the queue leaves without a permit; the permits stay whole")
  func cancellation() async throws {
    let limiter = ConcurrencyLimiter(maximum: 1)
    try await limiter.acquire()
    let waiter = Task { try await limiter.acquire() }
    waiter.cancel()
    await #expect(throws: CancellationError.self) { try await waiter.value }
    #expect(limiter.inFlight == 1)
    limiter.release()
    #expect(limiter.inFlight == 0)
    try await limiter.acquire()
    #expect(limiter.inFlight == 1)
    limiter.release()
  }

  @Test("a released permit goes to the waiter that came first")
  func handOff() async throws {
    let limiter = ConcurrencyLimiter(maximum: 1)
    try await limiter.acquire()
    let order = Mutex<[Int]>([])
    let first = Task {
      try await limiter.acquire()
      order.withLock { $0.append(1) }
      limiter.release()
    }
    limiter.release()
    try await first.value
    #expect(order.withLock { $0 } == [1])
    #expect(limiter.inFlight == 0)
  }

  @Test("counters serialize per endpoint in a stable order for run.json")
  func countersJSON() {
    let counters = RequestCounters()
    counters.record(.subscriptionStatuses) {
      $0.requests += 2
      $0.successes += 1
      $0.errorsByStatus[429] = 1
      $0.rateLimited = 1
    }
    counters.record(.transactionHistory) {
      $0.requests += 1
      $0.failures += 1
      $0.errorsByCode[4_040_010] = 1
      $0.errorsByStatus[404] = 1
    }
    var writer = JSONWriter()
    counters.snapshot().write(to: &writer)
    #expect(
      writer.string
        == #"{"transaction_history":{"requests":1,"successes":0,"failures":1,"retries":0,"rate_limited":0,"transport_errors":0,"verification_failures":0,"errors_by_status":{"404":1},"errors_by_code":{"4040010":1}},"#
        + #""subscription_statuses":{"requests":2,"successes":1,"failures":0,"retries":0,"rate_limited":1,"transport_errors":0,"verification_failures":0,"errors_by_status":{"429":1},"errors_by_code":{}}}"#
    )
    #expect(counters.snapshot().totalRequests == 3)
  }
}
