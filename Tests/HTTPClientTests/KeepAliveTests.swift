import Foundation
import HTTPClient
import HTTPServer
import Testing

@Suite("Keep-alive connections against the project's HTTP server")
struct KeepAliveTests {
  private func request(
    _ server: HTTPServer, _ method: String = "GET", _ path: String = "/", body: [UInt8]? = nil
  ) -> HTTPClientRequest {
    HTTPClientRequest(
      method: method, scheme: "http", host: "127.0.0.1", port: server.port, target: path,
      headers: [("Accept", "application/json")], body: body)
  }

  /// A server that keeps idle connections for ten minutes: a test process busy with other
  /// tests can leave this one unscheduled for longer than the default 30 s between two
  /// requests, and these tests are about reuse, not about the server's idle limit.
  private static var patient: HTTPServerConfiguration {
    var settings = HTTPServerConfiguration()
    settings.idleTimeout = .seconds(600)
    return settings
  }

  @Test("sequential requests share one connection")
  func reuse() async throws {
    let server = try HTTPServer.start(configuration: Self.patient) { request in
      .text("answer to \(request.path)")
    }
    defer { server.stop() }
    let client = SocketHTTPClient.patient()
    for index in 0..<5 {
      let response = try await client.execute(request(server, "GET", "/\(index)"))
      #expect(String(decoding: response.body, as: UTF8.self) == "answer to /\(index)")
    }
    #expect(client.statistics.connectionsOpened == 1)
    #expect(client.statistics.requestsOnReusedConnections == 4)
    #expect(server.statistics.connectionsAccepted == 1)
  }

  @Test("concurrent requests each get their own answer, on at most as many connections")
  func concurrent() async throws {
    let server = try HTTPServer.start { request in .text(request.path) }
    defer { server.stop() }
    var configuration = HTTPClientConfiguration()
    configuration.maximumConcurrentRequests = 4
    let client = SocketHTTPClient(configuration: configuration)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<40 {
        group.addTask {
          let response = try await client.execute(request(server, "GET", "/\(index)"))
          #expect(String(decoding: response.body, as: UTF8.self) == "/\(index)")
        }
      }
      try await group.waitForAll()
    }
    #expect(client.statistics.responses == 40)
    #expect(client.statistics.connectionsOpened <= 4)
  }

  @Test("a request body and its headers arrive whole; a 5 MB answer comes back whole")
  func largeBodies() async throws {
    let large = (0..<5_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    var settings = Self.patient
    settings.maximumBodyBytes = 2 << 20
    let server = try HTTPServer.start(configuration: settings) { request in
      request.method == .post
        ? HTTPResponse(
          body: Array("\(request.body.count) \(request.headers["Accept"] ?? "-")".utf8))
        : HTTPResponse(body: large)
    }
    defer { server.stop() }
    let client = SocketHTTPClient.patient()
    let posted = try await client.execute(
      request(server, "POST", "/", body: [UInt8](repeating: 7, count: 1_000_000)))
    #expect(String(decoding: posted.body, as: UTF8.self) == "1000000 application/json")
    let response = try await client.execute(request(server))
    #expect(response.body == large)
    #expect(client.statistics.connectionsOpened == 1)
  }

  @Test("an answer over the bound is refused")
  func tooLarge() async throws {
    let server = try HTTPServer.start { _ in HTTPResponse(body: [UInt8](repeating: 1, count: 4096))
    }
    defer { server.stop() }
    var configuration = HTTPClientConfiguration()
    configuration.maximumResponseBytes = 1000
    let client = SocketHTTPClient(configuration: configuration)
    let error = await #expect(throws: HTTPClientError.self) {
      _ = try await client.execute(request(server))
    }
    #expect(error?.kind == .responseTooLarge)
  }

  @Test("a body cut short and a close without an answer on a new connection are failures")
  func faults() async throws {
    let server = try HTTPServer.start { request in
      HTTPResponse(
        body: Array("0123456789".utf8),
        fault: request.path == "/truncate" ? .truncateBody(afterBytes: 3) : .closeWithoutResponse)
    }
    defer { server.stop() }
    let client = SocketHTTPClient.patient()
    let truncated = await #expect(throws: HTTPClientError.self) {
      _ = try await client.execute(request(server, "GET", "/truncate"))
    }
    #expect(truncated?.kind == .truncatedBody)
    let closed = await #expect(throws: HTTPClientError.self) {
      _ = try await client.execute(request(server, "GET", "/close"))
    }
    #expect(closed?.kind == .connectionClosed)
    // A new connection that fails is not retried: retries are the caller's policy.
    #expect(client.statistics.retriesAfterStaleConnection == 0)
  }

  @Test("a refused connection fails with cannotConnect")
  func refused() async throws {
    let server = try HTTPServer.start { _ in .text("") }
    let port = server.port
    server.stop()
    let client = SocketHTTPClient.patient()
    let error = await #expect(throws: HTTPClientError.self) {
      _ = try await client.execute(
        HTTPClientRequest(method: "GET", scheme: "http", host: "127.0.0.1", port: port, target: "/")
      )
    }
    #expect(error?.kind == .cannotConnect)
  }
}
