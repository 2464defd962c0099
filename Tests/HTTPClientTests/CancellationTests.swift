import Foundation
import HTTPClient
import Testing

@Suite("Cancelled tasks")
struct CancellationTests {
  @Test("a queued request of a cancelled task fails at once; the running one still ends")
  func queuedRequestCancelled() async throws {
    let server = try ScriptedServer([
      { exchange, server in
        server.record(exchange.readRequest())
        exchange.waitForClose()
      }
    ])
    var configuration = HTTPClientConfiguration()
    configuration.maximumConcurrentRequests = 1
    configuration.timeout = .seconds(2)
    let client = SocketHTTPClient(configuration: configuration)
    let request = HTTPClientRequest(
      method: "GET", scheme: "http", host: "127.0.0.1", port: server.port, target: "/")
    // Occupies the only thread until its deadline: the server never answers.
    let running = Task { try await client.execute(request) }
    while server.requests.withLock({ $0.isEmpty }) { await Task.yield() }
    let queued = Task { try await client.execute(request) }
    queued.cancel()
    let queuedError = await #expect(throws: HTTPClientError.self) { _ = try await queued.value }
    #expect(queuedError?.kind == .cancelled)
    running.cancel()
    let runningError = await #expect(throws: HTTPClientError.self) { _ = try await running.value }
    #expect(runningError?.kind == .timedOut)
    client.shutDown()
    server.waitUntilFinished()
  }

  @Test("a task cancelled before it asks gets a cancellation failure, not a hang")
  func cancelledBeforeStart() async throws {
    let client = SocketHTTPClient()
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await client.execute(
        HTTPClientRequest(method: "GET", scheme: "http", host: "127.0.0.1", port: 9, target: "/"))
    }
    let error = await #expect(throws: HTTPClientError.self) { _ = try await task.value }
    #expect(error?.kind == .cancelled)
  }
}
