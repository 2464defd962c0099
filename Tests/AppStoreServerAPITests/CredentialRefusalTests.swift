import AppStoreServerAPI
import Foundation
import JSON
import Synchronization
import Testing

/// Wrong credentials stop every request of a client at once: many requests get their 401
/// together, one of them tries a freshly signed token, and once that is refused too nothing
/// else is sent.
///
/// Evidence: our client against a scripted transport — it shows what the client sends, not what
/// Apple answers (Apple's 401 carries no reason, as the script's does not).
@Suite("Client: refused credentials")
struct CredentialRefusalTests {
  @Test("forty calls with a wrong key send at most the concurrency plus one request, all fail 401")
  func concurrentCallsStopTogether() async throws {
    let clock = ManualClock()
    let harness = try ClientHarness(
      maximumConcurrentRequests: 4, clock: clock,
      transport: ScriptedTransport { _, _ in
        clock.advance(by: 1_000)  // so a re-signed token differs (iat is in seconds)
        return Answer.text(401, "Unauthenticated")
      })
    let client = harness.client
    let kinds = await withTaskGroup(of: AppStoreAPIError.Kind?.self) { group in
      for index in 0..<40 {
        group.addTask {
          do {
            _ = try await client.transactionInfo("\(index)", environment: .production)
            return nil
          } catch let error as AppStoreAPIError {
            return error.kind
          } catch {
            return nil
          }
        }
      }
      var kinds: [AppStoreAPIError.Kind?] = []
      for await kind in group { kinds.append(kind) }
      return kinds
    }
    #expect(kinds.count == 40)
    #expect(kinds.allSatisfy { $0 == .unauthorized })
    let sent = harness.transport.requests.count
    #expect(sent >= 2 && sent <= 4 + 1, "\(sent) requests sent")
    // Refused for the life of the client: a later call sends nothing.
    _ = try await requireAPIError {
      _ = try await client.transactionInfo("41", environment: .production)
    }
    #expect(harness.transport.requests.count == sent)
  }

  @Test("a token the server refused once, then accepts when re-signed: every call succeeds")
  func staleTokenRecovers() async throws {
    let clock = ManualClock()
    let transaction = try ClientHarness.sign(Sample.transaction())
    let firstToken = Mutex<String?>(nil)
    let harness = try ClientHarness(
      maximumConcurrentRequests: 4, clock: clock,
      transport: ScriptedTransport { request, _ in
        let token = request.headers["Authorization"] ?? ""
        let isFirst = firstToken.withLock { first in
          if first == nil { first = token }
          return first == token
        }
        clock.advance(by: 1_000)
        if isFirst { return Answer.text(401, "Unauthenticated") }
        return Answer.json {
          $0.beginObject()
          $0.field("signedTransactionInfo", transaction)
          $0.endObject()
        }
      })
    let client = harness.client
    let successes = await withTaskGroup(of: Bool.self) { group in
      for index in 0..<12 {
        group.addTask {
          (try? await client.transactionInfo("\(index)", environment: .production)) != nil
        }
      }
      var count = 0
      for await success in group where success { count += 1 }
      return count
    }
    #expect(successes == 12)
  }
}
