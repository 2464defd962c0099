import Foundation
import HTTPClient
import Testing

@Suite("A keep-alive connection the server closed")
struct StaleConnectionTests {
  private func request(_ port: Int, _ method: String) -> HTTPClientRequest {
    HTTPClientRequest(
      method: method, scheme: "http", host: "127.0.0.1", port: port, target: "/",
      body: method == "POST" ? Array("{}".utf8) : nil)
  }

  /// A first connection that answers once and then closes as the second request arrives, the
  /// race between a server's idle timeout and a client's next request; then a second connection
  /// that answers normally, when the client comes back.
  private func closingServer() throws -> ScriptedServer {
    try ScriptedServer([
      { exchange, server in
        server.record(exchange.readRequest())
        exchange.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfirst")
        server.record(exchange.readRequest())
      },
      { exchange, server in
        server.record(exchange.readRequest())
        exchange.write("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nsecond")
        exchange.waitForClose()
      },
    ])
  }

  @Test("an idempotent request is sent again, once, on a new connection")
  func idempotentRetried() async throws {
    let server = try closingServer()
    let client = SocketHTTPClient.patient()
    _ = try await client.execute(request(server.port, "GET"))
    let second = try await client.execute(request(server.port, "GET"))
    #expect(String(decoding: second.body, as: UTF8.self) == "second")
    #expect(client.statistics.retriesAfterStaleConnection == 1)
    #expect(client.statistics.connectionsOpened == 2)
    client.shutDown()
    server.waitUntilFinished()
    #expect(server.requests.withLock { $0.count } == 3)
  }

  @Test("a POST is not sent again: the server may have acted on it")
  func postNotRetried() async throws {
    let server = try closingServer()
    let client = SocketHTTPClient.patient()
    _ = try await client.execute(request(server.port, "GET"))
    let error = await #expect(throws: HTTPClientError.self) {
      _ = try await client.execute(request(server.port, "POST"))
    }
    #expect(error?.kind == .connectionClosed)
    #expect(client.statistics.retriesAfterStaleConnection == 0)
    // Let the second script run, so that the server finishes.
    _ = try await client.execute(request(server.port, "GET"))
    client.shutDown()
    server.waitUntilFinished()
  }

  @Test("a connection the server closed while idle is noticed and not used")
  func closedWhileIdle() async throws {
    let server = try ScriptedServer([
      { exchange, server in
        server.record(exchange.readRequest())
        exchange.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfirst")
      },
      { exchange, server in
        server.record(exchange.readRequest())
        exchange.write("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nsecond")
        exchange.waitForClose()
      },
    ])
    let client = SocketHTTPClient.patient()
    _ = try await client.execute(request(server.port, "POST"))
    // The first script closes right after answering; on loopback its FIN is delivered by the
    // time close() returns.
    while server.closedConnections.withLock({ $0 }) < 1 { await Task.yield() }
    let second = try await client.execute(request(server.port, "POST"))
    #expect(String(decoding: second.body, as: UTF8.self) == "second")
    #expect(client.statistics.connectionsOpened == 2)
    client.shutDown()
    server.waitUntilFinished()
  }
}
