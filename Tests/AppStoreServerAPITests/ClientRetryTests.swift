import AppStoreServerAPI
import Chronology
import Foundation
import JSON
import Synchronization
import Testing

@Suite("Client: errors, retries and Retry-After")
struct ClientRetryTests {
  /// An error answer, how many attempts the client makes in all, and whether it is retryable.
  struct ErrorCase: Sendable, CustomTestStringConvertible {
    let answer: Result<HTTPResponse, TransportFailure>
    let attempts: Int
    let retryable: Bool
    let name: String
    var testDescription: String { name }
  }

  static let errorCases: [ErrorCase] = [
    ErrorCase(
      answer: Answer.error(404, code: 4_040_002), attempts: 5, retryable: true, name: "4040002"),
    ErrorCase(
      answer: Answer.error(404, code: 4_040_004), attempts: 5, retryable: true, name: "4040004"),
    ErrorCase(
      answer: Answer.error(404, code: 4_040_006), attempts: 5, retryable: true, name: "4040006"),
    ErrorCase(
      answer: Answer.error(500, code: 5_000_001), attempts: 5, retryable: true, name: "5000001"),
    ErrorCase(
      answer: Answer.error(500, code: 5_000_000), attempts: 3, retryable: true, name: "5000000"),
    ErrorCase(
      answer: Answer.text(502, "<html>Bad Gateway</html>", type: "text/html"), attempts: 3,
      retryable: true, name: "502 HTML"),
    ErrorCase(
      answer: Answer.error(503, code: 5_030_000), attempts: 3, retryable: true,
      name: "503 unknown code"),
    ErrorCase(
      answer: Answer.error(429, code: 4_290_000), attempts: 10, retryable: true, name: "429"),
    ErrorCase(
      answer: Answer.text(429, ""), attempts: 10, retryable: true, name: "429 without body"),
    ErrorCase(answer: .failure(.timedOut), attempts: 5, retryable: true, name: "timeout"),
    ErrorCase(answer: .failure(.connectionReset), attempts: 5, retryable: true, name: "reset"),
    ErrorCase(
      answer: Answer.error(400, code: 4_000_002), attempts: 1, retryable: false, name: "4000002"),
    ErrorCase(
      answer: Answer.error(400, code: 4_000_005), attempts: 1, retryable: false, name: "4000005"),
    ErrorCase(
      answer: Answer.error(400, code: 4_000_006), attempts: 1, retryable: false, name: "4000006"),
    ErrorCase(
      answer: Answer.error(404, code: 4_040_001), attempts: 1, retryable: false, name: "4040001"),
    ErrorCase(
      answer: Answer.error(404, code: 4_040_003), attempts: 1, retryable: false, name: "4040003"),
    ErrorCase(
      answer: Answer.error(404, code: 4_040_005), attempts: 1, retryable: false, name: "4040005"),
    ErrorCase(
      answer: Answer.error(404, code: 4_040_010), attempts: 1, retryable: false, name: "4040010"),
    ErrorCase(
      answer: Answer.error(404, code: 4_049_999), attempts: 1, retryable: false,
      name: "unknown 404 code"),
    ErrorCase(
      answer: Answer.text(404, "not found"), attempts: 1, retryable: false, name: "404 text"),
  ]

  @Test("each error answer is retried exactly as often as allowed", arguments: errorCases)
  func retriesOnlyWhereAllowed(errorCase: ErrorCase) async throws {
    let answer = errorCase.answer
    let harness = try ClientHarness(transport: ScriptedTransport { _, _ in answer })
    let error = try await requireAPIError {
      _ = try await harness.client.transactionInfo("2000000123456789", environment: .production)
    }
    #expect(harness.transport.requests.count == errorCase.attempts)
    #expect(error.isRetryable == errorCase.retryable)
    #expect(error.endpoint == .transactionInfo)
    #expect(error.requestedId == "2000000123456789")
    let counts = harness.client.counters.snapshot()[.transactionInfo]
    #expect(counts.requests == errorCase.attempts)
    #expect(counts.retries == errorCase.attempts - 1)
    #expect(counts.failures == 1)
    #expect(counts.successes == 0)
  }

  @Test("unknown error codes survive with their number and status")
  func unknownCode() async throws {
    let harness = try ClientHarness(
      transport: ScriptedTransport(responses: [Answer.error(400, code: 4_001_234, message: "New")]))
    let error = try await requireAPIError {
      _ = try await harness.client.transactionInfo("1", environment: .production)
    }
    #expect(
      error.kind == .server(status: 400, code: APIErrorCode(rawValue: 4_001_234), message: "New"))
    #expect(error.httpStatus == 400)
    #expect(error.description.contains("4001234"))
    #expect(harness.client.counters.snapshot()[.transactionInfo].errorsByCode == [4_001_234: 1])
  }

  @Test("a retried call that then succeeds returns the answer; back-off grows with jitter")
  func backoffThenSuccess() async throws {
    let transaction = try ClientHarness.sign(Sample.transaction())
    let harness = try ClientHarness(
      random: 0.5,
      transport: ScriptedTransport(responses: [
        Answer.error(500, code: 5_000_001), .failure(.timedOut), Answer.error(404, code: 4_040_002),
        Answer.json {
          $0.beginObject()
          $0.field("signedTransactionInfo", transaction)
          $0.endObject()
        },
      ]))
    let verified = try await harness.client.transactionInfo("1", environment: .production)
    #expect(verified.jws == transaction)
    // Equal jitter at 0.5: three quarters of 500, 1000, 2000 ms.
    #expect(harness.clock.sleeps == [375, 750, 1_500])
    let counts = harness.client.counters.snapshot()[.transactionInfo]
    #expect(counts.retries == 3)
    #expect(counts.successes == 1)
    #expect(counts.transportErrors == 1)
    #expect(counts.errorsByStatus == [500: 1, 404: 1])
  }

  @Test(
    "Retry-After is honoured as epoch milliseconds, epoch seconds or delta seconds",
    arguments: [("EPOCH_MS", Int64(2_500)), ("30", 30_000), ("EPOCH_S", 7_000)])
  func retryAfter(header: String, expectedWait: Int64) async throws {
    let transaction = try ClientHarness.sign(Sample.transaction())
    let clock = ManualClock()
    let start = clock.now
    let value =
      switch header {
      case "EPOCH_MS": String(start.millisecondsSince1970 + 2_500)
      case "EPOCH_S": String(start.secondsSince1970 + 7)
      default: header
      }
    let harness = try ClientHarness(
      clock: clock,
      transport: ScriptedTransport(responses: [
        Answer.error(429, code: 4_290_000, retryAfter: value),
        Answer.json {
          $0.beginObject()
          $0.field("signedTransactionInfo", transaction)
          $0.endObject()
        },
      ]))
    _ = try await harness.client.transactionInfo("1", environment: .production)
    #expect(start.millisecondsSince1970 % 1000 == 0)
    #expect(harness.clock.sleeps == [expectedWait])
    #expect(harness.transport.requests.count == 2)
    #expect(harness.client.counters.snapshot()[.transactionInfo].rateLimited == 1)
  }

  /// A 429 asking for a wait of an hour (a day, in the night that froze) is not waited for:
  /// the call ends at once with the reason, and so does the next call to the endpoint, which
  /// the limiter holds until then — without a request.
  @Test("a Retry-After beyond the longest allowed wait ends the call, and the next, at once")
  func retryAfterTooFar() async throws {
    let clock = ManualClock()
    let far = Timestamp(millisecondsSince1970: clock.now.millisecondsSince1970 + 3_600_000)
    let harness = try ClientHarness(
      clock: clock,
      transport: ScriptedTransport { _, _ in
        Answer.error(429, code: 4_290_000, retryAfter: String(far.millisecondsSince1970))
      })
    for call in 0..<2 {
      let error = try await requireAPIError {
        _ = try await harness.client.transactionInfo("1", environment: .production)
      }
      #expect(
        error.kind
          == .waitRefused(until: far, limit: "the longest wait this client accepts (15 minutes)"))
      #expect(error.retryAfter == far)
      #expect(!error.isRetryable)
      #expect(error.description.contains("given up for this run"), "\(error)")
      #expect(harness.transport.requests.count == 1, "call \(call)")
    }
    #expect(harness.clock.sleeps.isEmpty)
    // Other endpoints are not held.
    _ = try? await harness.client.allSubscriptionStatuses("1", environment: .production)
    #expect(harness.transport.requests.count == 2)
  }

  @Test("a retry whose wait would pass the caller's deadline is not waited for")
  func deadline() async throws {
    let clock = ManualClock()
    let harness = try ClientHarness(
      clock: clock,
      transport: ScriptedTransport { _, _ in
        Answer.error(429, code: 4_290_000, retryAfter: "30")
      })
    let end = clock.now.adding(milliseconds: 10_000)
    let error = try await requireAPIError {
      try await RequestDeadline.$current.withValue(
        RequestDeadline(instant: end, name: "the refresh's time budget (--max-duration)")
      ) {
        _ = try await harness.client.transactionInfo("1", environment: .production)
      }
    }
    guard case .waitRefused(let until, let limit) = error.kind else {
      Issue.record("\(error)")
      return
    }
    #expect(until == clock.now.adding(milliseconds: 30_000))
    #expect(limit.contains("--max-duration") && limit.contains("\(end)"))
    #expect(harness.transport.requests.count == 1)
    #expect(harness.clock.sleeps.isEmpty)
    // The limiter's hold (until the Retry-After) is past the deadline too: refused unsent.
    let held = try await requireAPIError {
      try await RequestDeadline.$current.withValue(RequestDeadline(instant: end, name: "budget")) {
        _ = try await harness.client.transactionInfo("1", environment: .production)
      }
    }
    #expect(held.kind == .waitRefused(until: until, limit: "budget, which ends at \(end)"))
    #expect(harness.transport.requests.count == 1)
  }

  /// The first SIGTERM of an audit frozen on a 429 was acknowledged and ignored: a wait now asks
  /// the stop hook every 100 ms.
  @Test("a stop asked during a ten-minute wait ends it within one slice, without a request")
  func stopDuringWait() async throws {
    let clock = ManualClock()
    let stop = StopFlag()
    let transport = ScriptedTransport { _, _ in
      Answer.error(429, code: 4_290_000, retryAfter: "600")
    }
    let credentials = try testCredentials()
    let client = try AppStoreServerAPIClient(
      configuration: ClientConfiguration(
        credentials: credentials, trustedRoots: [TestChain.standard.root.certificate],
        appAppleId: TestChain.appAppleId,
        baseURLOverrides: [.production: try #require(URL(string: "http://127.0.0.1:9/"))],
        rateLimits: .unpaced),
      transport: transport, now: { clock.now },
      sleep: { milliseconds in
        clock.sleep(milliseconds)
        // The signal arrives three seconds into the wait.
        if clock.sleeps.reduce(0, +) >= 3_000 { stop.set() }
      }, random: { 0.5 }, isStopping: { stop.isSet }, notice: { _ in })
    let error = try await requireAPIError {
      _ = try await client.transactionInfo("1", environment: .production)
    }
    #expect(error.kind == .cancelled)
    #expect(clock.sleeps.allSatisfy { $0 <= AppStoreServerAPIClient.stopCheckInterval })
    #expect(clock.sleeps.reduce(0, +) == 3_000)
    #expect(transport.requests.count == 1)
  }

  @Test("a rejected TLS certificate is not retried; a handshake cut short is")
  func certificateRejected() async throws {
    let rejected = try ClientHarness(
      transport: ScriptedTransport { _, _ in
        .failure(.certificateRejected(detail: "self-signed certificate"))
      })
    let error = try await requireAPIError {
      _ = try await rejected.client.transactionInfo("1", environment: .production)
    }
    #expect(error.kind == .transport(.certificateRejected(detail: "self-signed certificate")))
    #expect(!error.isRetryable)
    #expect(rejected.transport.requests.count == 1)
    #expect(error.description.contains("not retried"))
    let cut = try ClientHarness(
      transport: ScriptedTransport { _, _ in .failure(.cannotConnect(detail: "reset")) })
    _ = try await requireAPIError {
      _ = try await cut.client.transactionInfo("1", environment: .production)
    }
    #expect(cut.transport.requests.count == 5)
  }

  @Test(
    "Retry-After values read as their form says",
    arguments: [
      ("1706000000123", Int64(1_706_000_000_123)), ("1706000000", 1_706_000_000_000),
      (" 5 ", 1_000_005_000), ("0", 1_000_000_000),
    ])
  func retryAfterParsing(value: String, instant: Int64) {
    let now = Timestamp(millisecondsSince1970: 1_000_000_000)
    #expect(
      RetryAfterHeader.instant(from: value, now: now)
        == Timestamp(millisecondsSince1970: instant))
  }

  @Test(
    "Retry-After that is absent or not a number is ignored",
    arguments: [nil, "", "soon", "-5", "Wed, 21 Oct 2015 07:28:00 GMT"])
  func retryAfterIgnored(value: String?) {
    #expect(RetryAfterHeader.instant(from: value, now: Timestamp(millisecondsSince1970: 0)) == nil)
  }

  @Test("401 without a body: the token is re-signed once, then the call fails plainly")
  func unauthorized() async throws {
    let clock = ManualClock()
    let harness = try ClientHarness(
      clock: clock,
      transport: ScriptedTransport { _, _ in
        clock.advance(by: 1_000)  // so the re-signed token differs (iat is in seconds)
        return Answer.text(401, "Unauthenticated")
      })
    let error = try await requireAPIError {
      _ = try await harness.client.transactionInfo("1", environment: .production)
    }
    #expect(error.kind == .unauthorized)
    #expect(error.httpStatus == 401)
    #expect(!error.isRetryable)
    #expect(error.description.contains("ASC_KEY_ID"))
    let tokens = harness.transport.requests.compactMap { $0.headers["Authorization"] }
    #expect(tokens.count == 2)
    #expect(Set(tokens).count == 2)
  }

  @Test("401 followed by success after re-signing succeeds")
  func unauthorizedOnce() async throws {
    let transaction = try ClientHarness.sign(Sample.transaction())
    let harness = try ClientHarness(
      transport: ScriptedTransport(responses: [
        Answer.text(401, ""),
        Answer.json {
          $0.beginObject()
          $0.field("signedTransactionInfo", transaction)
          $0.endObject()
        },
      ]))
    #expect(
      try await harness.client.transactionInfo("1", environment: .production).jws == transaction)
    #expect(harness.transport.requests.count == 2)
  }

  @Test("a body cut inside its JSON is a truncated transfer and is retried")
  func truncatedBody() async throws {
    let transaction = try ClientHarness.sign(Sample.transaction())
    let complete = #"{"signedTransactionInfo":"\#(transaction)"}"#
    let harness = try ClientHarness(
      transport: ScriptedTransport(responses: [
        Answer.text(200, String(complete.prefix(40)), type: "application/json"),
        Answer.text(200, complete, type: "application/json"),
      ]))
    #expect(
      try await harness.client.transactionInfo("1", environment: .production).jws == transaction)
    #expect(harness.transport.requests.count == 2)
    #expect(harness.client.counters.snapshot()[.transactionInfo].transportErrors == 1)
  }

  @Test("backoff is exponential, capped, with equal jitter")
  func backoffValues() {
    let policy = RetryPolicy(initialBackoff: 500, maximumBackoff: 4_000)
    #expect(policy.backoff(beforeAttempt: 2, random: 0) == 250)
    #expect(policy.backoff(beforeAttempt: 2, random: 0.999_999) == 499)
    #expect(policy.backoff(beforeAttempt: 3, random: 0) == 500)
    #expect(policy.backoff(beforeAttempt: 5, random: 0) == 2_000)
    #expect(policy.backoff(beforeAttempt: 6, random: 0) == 2_000)
    #expect(policy.backoff(beforeAttempt: 60, random: 1) == 4_000)
  }

  @Test("RetryPolicy.never makes one attempt")
  func never() async throws {
    let harness = try ClientHarness(
      retryPolicy: .never,
      transport: ScriptedTransport { _, _ in Answer.error(500, code: 5_000_001) })
    _ = try await requireAPIError {
      _ = try await harness.client.transactionInfo("1", environment: .production)
    }
    #expect(harness.transport.requests.count == 1)
  }

  @Test("no token, key or Authorization header appears in errors, requests or counters")
  func redaction() async throws {
    let harness = try ClientHarness(
      transport: ScriptedTransport(responses: [
        Answer.text(401, ""), Answer.text(401, ""),
      ]))
    let error = try await requireAPIError {
      _ = try await harness.client.transactionInfo("1", environment: .production)
    }
    var counters = JSONWriter()
    harness.client.counters.snapshot().write(to: &counters)
    var dumped = ""
    dump(error, to: &dumped)
    dump(harness.client.configuration, to: &dumped)
    let requests = harness.transport.requests
    let texts =
      [String(describing: error), counters.string, dumped] + requests.map(String.init(describing:))
    let keyPEM = try harness.credentials.privateKey.pemRepresentation
    for token in requests.compactMap({ $0.headers["Authorization"] }) {
      let jwt = String(token.dropFirst("Bearer ".count))
      for text in texts {
        #expect(!text.contains(jwt))
        #expect(!text.contains(String(jwt.split(separator: ".")[2])))
        #expect(!text.contains("Bearer"))
        expectNoKeyMaterial(in: text, keyPEM: keyPEM)
      }
    }
  }
}

/// A stop request for the tests: set once, read from any task.
final class StopFlag: Sendable {
  private let flag = Atomic<Bool>(false)
  func set() { flag.store(true, ordering: .relaxed) }
  var isSet: Bool { flag.load(ordering: .relaxed) }
}
