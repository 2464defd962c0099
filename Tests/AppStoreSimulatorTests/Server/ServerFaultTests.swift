import AppStoreServerAPI
import AppStoreSimulator
import CryptoSupport
import Foundation
import JSON
import Testing

@Suite("Simulator server: each fault as the client sees it")
struct ServerFaultTests {
  typealias World = HandBuiltWorld

  func harness(_ faults: String?, latency: String? = nil, seed: UInt64 = 1) throws
    -> SimulatorHarness
  {
    let plan = try FaultPlan.parse(faults: faults, latency: latency)
    return try SimulatorHarness.start(world: World.world) {
      $0.faults = plan
      $0.seed = seed
    }
  }

  static let errorFaults: [(String, Int64, Int)] = [
    ("5000000", 5_000_000, 3), ("500", 5_000_000, 3), ("5000001", 5_000_001, 5),
    ("4040002", 4_040_002, 5), ("4040004", 4_040_004, 5), ("4040006", 4_040_006, 5),
  ]

  @Test(
    "an error fault is answered with its code, and retried only as far as the client allows",
    arguments: errorFaults)
  func errorFault(_ name: String, _ code: Int64, _ attempts: Int) async throws {
    let harness = try harness("history:\(name)=1")
    defer { harness.stop() }
    await #expect {
      _ = try await harness.client.transactionHistory(
        World.subscriptionOriginal, environment: .production)
    } throws: { ($0 as? AppStoreAPIError)?.code == code }
    let counters = harness.server.statistics().counters(for: .transactionHistory)
    #expect(counters.requests == attempts)
    #expect(counters.errorCodes == [code: attempts])
    #expect(counters.statuses == [Int(code / 10_000): attempts])
    // Other endpoints are untouched.
    _ = try await harness.client.allSubscriptionStatuses(
      World.subscriptionOriginal, environment: .production)
  }

  @Test("a dropped connection is a transport failure")
  func drop() async throws {
    let harness = try harness("status:drop=1")
    defer { harness.stop() }
    await #expect {
      _ = try await harness.client.allSubscriptionStatuses(
        World.subscriptionOriginal, environment: .production)
    } throws: { error in
      guard case .transport = (error as? AppStoreAPIError)?.kind else { return false }
      return true
    }
    let statistics = harness.server.statistics()
    // libcurl resends a request dropped on a reused connection once, so the server may see
    // more requests than the client made attempts.
    #expect(statistics.counters(for: .subscriptionStatuses).faults[.dropConnection] ?? 0 >= 5)
    #expect(statistics.productionHTTP.faultsClosedWithoutResponse >= 5)
  }

  @Test("a truncated body is a transport failure")
  func truncate() async throws {
    let harness = try harness("history:truncate=1")
    defer { harness.stop() }
    await #expect {
      _ = try await harness.client.transactionHistory(
        World.subscriptionOriginal, environment: .production)
    } throws: { error in
      guard case .transport = (error as? AppStoreAPIError)?.kind else { return false }
      return true
    }
    #expect(harness.server.statistics().productionHTTP.faultsTruncatedBody == 5)
  }

  @Test("malformed JSON is a malformed response, not retried")
  func malformed() async throws {
    let harness = try harness("transaction:malformed=1")
    defer { harness.stop() }
    await #expect {
      _ = try await harness.client.transactionInfo(
        World.subscriptionOriginal, environment: .production)
    } throws: { error in
      guard case .malformedResponse(let status, _) = (error as? AppStoreAPIError)?.kind else {
        return false
      }
      return status == 200
    }
    #expect(
      harness.server.statistics().counters(for: .transactionInfo).faults == [.malformedJSON: 1])
  }

  @Test("a bad signature fails verification")
  func badSignature() async throws {
    let harness = try harness("status:bad-signature=1")
    defer { harness.stop() }
    await #expect {
      _ = try await harness.client.allSubscriptionStatuses(
        World.subscriptionOriginal, environment: .production)
    } throws: { error in
      guard case .verificationFailed(.badSignature) = (error as? AppStoreAPIError)?.kind else {
        return false
      }
      return true
    }
    // An answer without signed data cannot carry a bad signature: it is answered as it is.
    let empty = try await harness.client.allSubscriptionStatuses(
      World.testerTransaction, environment: .sandbox)
    #expect(empty.groups.isEmpty)
  }

  @Test("a bad signature reaches history pages too, past the revision token")
  func badSignatureInHistory() async throws {
    // A history page's first string beginning `eyJ` is its revision token (base64 JSON, no
    // dots); the fault must corrupt the first signed transaction after it.
    let harness = try harness("history:bad-signature=1")
    defer { harness.stop() }
    await #expect {
      _ = try await harness.client.transactionHistory(
        World.subscriptionOriginal, environment: .production)
    } throws: { error in
      guard case .verificationFailed(.badSignature) = (error as? AppStoreAPIError)?.kind else {
        return false
      }
      return true
    }
  }

  @Test("retry-after answers 429 with a Retry-After a day ahead of the wall clock (or as set)")
  func distantRetryAfter() async throws {
    for (specified, delay) in [(nil, Int64(86_400_000)), (Int64(600_000), Int64(600_000))] {
      let plan = try FaultPlan.parse(faults: "status:retry-after=1", latency: nil)
      let harness = try SimulatorHarness.start(world: World.world) {
        $0.faults = plan
        if let specified { $0.faults.retryAfterDelay = specified }
      }
      defer { harness.stop() }
      let response = try await harness.raw(
        "GET", "/inApps/v1/subscriptions/\(World.subscriptionOriginal)")
      #expect(response.status == 429)
      #expect(SimulatorHarness.errorCode(of: response) == 4_290_000)
      let retryAfter = try #require(response[header: "Retry-After"].flatMap { Int64($0) })
      #expect(retryAfter == harness.clock.now.millisecondsSince1970 + delay)
      let counters = harness.server.statistics().counters(for: .subscriptionStatuses)
      #expect(counters.faults[.distantRetryAfter] == 1)
      // Other endpoints are untouched.
      _ = try await harness.client.transactionHistory(
        World.subscriptionOriginal, environment: .production)
    }
  }

  @Test("refused-revision refuses every request with a revision, and only those")
  func refusedRevision() async throws {
    let harness = try harness("history:refused-revision=1")
    defer { harness.stop() }
    // Without a revision the walk starts normally; the revision it hands out is then refused.
    let first = try await harness.client.transactionHistory(
      World.subscriptionOriginal, environment: .production)
    for _ in 0..<3 {
      await #expect {
        _ = try await harness.client.transactionHistory(
          World.subscriptionOriginal, revision: first.revision, environment: .production)
      } throws: { ($0 as? AppStoreAPIError)?.code == 4_000_005 }
    }
    let counters = harness.server.statistics().counters(for: .transactionHistory)
    #expect(counters.faults[.refusedRevision] == 3)
    #expect(counters.errorCodes == [4_000_005: 3])
  }

  @Test("extreme-signed-date signs the first value again, validly, at the earliest Int64 instant")
  func extremeSignedDate() async throws {
    let harness = try harness("transaction:extreme-signed-date=1")
    defer { harness.stop() }
    let response = try await harness.raw(
      "GET", "/inApps/v1/transactions/\(World.subscriptionOriginal)")
    #expect(response.status == 200)
    guard case .object(let members)? = try? JSONValue(parsing: response.body),
      case .string(let jws)? = members.first(where: { $0.key == "signedTransactionInfo" })?.value
    else {
      Issue.record("no signedTransactionInfo in \(String(decoding: response.body, as: UTF8.self))")
      return
    }
    let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
    try #require(parts.count == 3)
    let payload = try JSONValue(parsing: Base64URL.decode(parts[1]))
    #expect(payload["signedDate"] == .number("-9223372036854775808"))
    #expect(payload["transactionId"] != nil, "the rest of the value is kept")
    // Signed with the simulator's leaf key: only the date can make a client refuse it.
    let leaf = ServerFixture.chain.leaf.privateKey.publicKey
    #expect(
      try leaf.isValidSignature(
        Base64URL.decode(parts[2]), for: Array("\(parts[0]).\(parts[1])".utf8)))
    #expect(
      harness.server.statistics().counters(for: .transactionInfo).faults[.extremeSignedDate] == 1)
  }

  @Test("latency is added as configured, per endpoint")
  func latency() throws {
    let harness = try harness(nil, latency: "20ms±5ms,history:50ms")
    defer { harness.stop() }
    let history = try harness.direct("/inApps/v2/history/\(World.subscriptionOriginal)")
    #expect(history.delay == .milliseconds(50))
    #expect(history.status.code == 200)
    for _ in 0..<20 {
      let status = try harness.direct("/inApps/v1/subscriptions/\(World.subscriptionOriginal)")
      #expect(status.delay >= .milliseconds(15) && status.delay <= .milliseconds(25))
    }
    #expect(harness.server.requestLog().first?.delay == .milliseconds(50))
  }

  @Test("faults are drawn at their rates from a seeded stream: the same seed, the same faults")
  func seeded() throws {
    func decisions(seed: UInt64) throws -> [String] {
      let harness = try harness("history:drop=0.2,history:5000001=0.3", seed: seed)
      defer { harness.stop() }
      return try (0..<300).map { _ in
        let response = try harness.direct("/inApps/v2/history/\(World.subscriptionOriginal)")
        return response.fault != nil ? "drop" : "\(response.status.code)"
      }
    }
    let first = try decisions(seed: 9)
    #expect(try decisions(seed: 9) == first)
    #expect(try decisions(seed: 10) != first)
    let drops = first.filter { $0 == "drop" }.count
    let errors = first.filter { $0 == "500" }.count
    #expect((40...80).contains(drops), "about 20 % of 300")
    #expect((65...115).contains(errors), "about 30 % of 300")
    #expect(drops + errors + first.filter { $0 == "200" }.count == 300)
  }
}
