import AppStoreServerAPI
import Chronology
import Testing

@Suite("History pager and environment fallback")
struct HistoryPagerTests {
  func signed(_ id: String, signedDate: Int64 = 0, productId: String = "com.example.monthly")
    throws -> String
  {
    try ClientHarness.sign(
      Sample.transaction(
        id: id, signedDate: Instant.signed.adding(milliseconds: signedDate), productId: productId))
  }

  @Test("pages follow the revision with the same filters, one request per page asked for")
  func pagesFollowRevision() async throws {
    let pages = [
      Answer.history([try signed("1"), try signed("2")], revision: "rev-1", hasMore: true),
      Answer.history([try signed("3")], revision: "rev-2", hasMore: true),
      Answer.history([try signed("4")], revision: "rev-3", hasMore: false),
    ]
    let harness = try ClientHarness(transport: ScriptedTransport(responses: pages))
    let query = HistoryQuery(productTypes: [.autoRenewable], revoked: false, sort: .ascending)
    var seen: [(revision: String?, requestsSoFar: Int, ids: [String])] = []
    for try await page in harness.client.historyPages("1", query: query, environment: .production) {
      // The caller checkpoints here: the next page has not been requested yet.
      seen.append(
        (
          page.revision, harness.transport.requests.count,
          page.transactions.compactMap(\.payload.transactionId)
        ))
    }
    #expect(seen.map(\.revision) == ["rev-1", "rev-2", "rev-3"])
    #expect(seen.map(\.requestsSoFar) == [1, 2, 3])
    #expect(seen.map(\.ids) == [["1", "2"], ["3"], ["4"]])
    let filters = ["productType=AUTO_RENEWABLE", "revoked=false", "sort=ASCENDING"]
    #expect(
      harness.transport.requests.map(queryItems) == [
        filters, filters + ["revision=rev-1"], filters + ["revision=rev-2"],
      ])
  }

  @Test("a stored revision continues the walk from there")
  func startingAfterRevision() async throws {
    let harness = try ClientHarness(
      transport: ScriptedTransport(responses: [
        Answer.history([], revision: "rev-9", hasMore: false)
      ]))
    let history = try await harness.client.collectHistory(
      "1", startingAfter: "rev-8", environment: .production)
    #expect(history.transactions.isEmpty)
    #expect(history.revision == "rev-9")
    #expect(history.pageCount == 1)
    #expect(harness.transport.requests.map(queryItems) == [["revision=rev-8"]])
  }

  @Test("a transaction updated during the walk is merged: the newest signedDate wins")
  func duplicateAcrossPages() async throws {
    let first = try signed("7", signedDate: 0, productId: "com.example.monthly")
    let updated = try signed("7", signedDate: 60_000, productId: "com.example.yearly")
    let harness = try ClientHarness(
      transport: ScriptedTransport(responses: [
        Answer.history([try signed("6"), first], revision: "a", hasMore: true),
        Answer.history([updated, try signed("8")], revision: "b", hasMore: false),
      ]))
    let history = try await harness.client.collectHistory("6", environment: .production)
    #expect(history.pageCount == 2)
    #expect(history.revision == "b")
    #expect(history.transactions.compactMap(\.payload.transactionId) == ["6", "7", "8"])
    #expect(history.transactions[1].jws == updated)
    #expect(history.transactions[1].payload.productId == "com.example.yearly")
  }

  @Test("an older copy arriving later does not replace a newer one")
  func mergerKeepsNewest() throws {
    let newer = try JWSSigner(chain: TestChain.standard).sign(
      Sample.transaction(id: "1", signedDate: Instant.signed.adding(milliseconds: 5)))
    let older = try JWSSigner(chain: TestChain.standard).sign(
      Sample.transaction(id: "1", signedDate: Instant.signed))
    let verifier = try TestChain.verifier()
    var merger = TransactionHistoryMerger()
    merger.add([try verifier.verifyTransaction(newer)])
    merger.add([try verifier.verifyTransaction(older)])
    #expect(merger.transactions.map(\.jws) == [newer])
    #expect(merger.replacedCount == 0)
  }

  @Test("hasMore without a new revision stops the walk with an error instead of looping")
  func stuckRevision() async throws {
    let harness = try ClientHarness(
      transport: ScriptedTransport { _, _ in Answer.history([], revision: "same", hasMore: true) })
    let error = try await requireAPIError {
      _ = try await harness.client.collectHistory(
        "1", startingAfter: "same", environment: .production)
    }
    guard case .malformedResponse = error.kind else {
      Issue.record("expected a malformed response, got \(error)")
      return
    }
    #expect(harness.transport.requests.count == 1)
  }

  // MARK: - Environment fallback

  @Test("4040010 in production falls back to sandbox, and the answer is remembered")
  func fallbackToSandbox() async throws {
    let sandboxTransaction = try ClientHarness.sign(Sample.transaction(environment: .sandbox))
    let harness = try ClientHarness(
      transport: ScriptedTransport { request, _ in
        request.url.path.hasPrefix("/prod")
          ? Answer.error(404, code: 4_040_010)
          : Answer.history(
            [sandboxTransaction], revision: "s", hasMore: false, environment: .sandbox)
      })
    let client = harness.client
    let resolved = try await client.resolvingEnvironment(for: "42") {
      environment throws(AppStoreAPIError) in
      try await client.transactionHistory("42", environment: environment)
    }
    #expect(resolved.environment == .sandbox)
    #expect(resolved.value.transactions.first?.payload.environment == .sandbox)
    #expect(
      harness.transport.requests.map(\.url.path) == [
        "/prod/inApps/v2/history/42", "/sandbox/inApps/v2/history/42",
      ])
    #expect(client.environments.environment(for: "42") == .sandbox)

    _ = try await client.resolvingEnvironment(for: "42") { environment throws(AppStoreAPIError) in
      try await client.transactionHistory("42", environment: environment)
    }
    #expect(harness.transport.requests.count == 3)
    #expect(harness.transport.requests.last?.url.path.hasPrefix("/sandbox") == true)
  }

  @Test("a hint is tried first; 4040010 in both environments means unknown to the App Store")
  func hintAndUnknown() async throws {
    let harness = try ClientHarness(
      transport: ScriptedTransport { _, _ in Answer.error(404, code: 4_040_010) })
    let client = harness.client
    let error = try await requireAPIError {
      _ = try await client.resolvingEnvironment(for: "9", hint: .sandbox) {
        environment throws(AppStoreAPIError) in
        try await client.transactionInfo("9", environment: environment)
      }
    }
    #expect(error.kind == .notFoundInAnyEnvironment(tried: [.sandbox, .production]))
    #expect(harness.transport.requests.map { $0.url.path.hasPrefix("/sandbox") } == [true, false])
    #expect(client.environments.environment(for: "9") == nil)
  }

  @Test("other errors do not fall back")
  func noFallbackOnOtherErrors() async throws {
    let harness = try ClientHarness(
      transport: ScriptedTransport { _, _ in Answer.error(404, code: 4_040_001) })
    let client = harness.client
    let error = try await requireAPIError {
      _ = try await client.resolvingEnvironment(for: "9") { environment throws(AppStoreAPIError) in
        try await client.transactionInfo("9", environment: environment)
      }
    }
    #expect(error.errorCode == .accountNotFound)
    #expect(harness.transport.requests.count == 1)
  }
}
