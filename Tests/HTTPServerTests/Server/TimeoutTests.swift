import Dispatch
import Testing

@testable import HTTPServer

/// Timeouts are configured tiny; the tests wait for the server's close (a blocking read), never
/// for time to pass.
@Suite("Timeouts")
struct TimeoutTests {
  @Test func closesAConnectionThatSendsNothingAfterTheIdleTimeout() throws {
    let configuration = HTTPServerConfiguration(idleTimeout: .milliseconds(30))
    let server = try HTTPServer.start(configuration: configuration, handler: TestHandlers.echo)
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    #expect(try client.serverClosedConnection())
    #expect(server.statistics.idleTimeouts == 1)
    #expect(server.statistics.readTimeouts == 0)
  }

  @Test func closesAKeepAliveConnectionIdleAfterAResponse() throws {
    let configuration = HTTPServerConfiguration(idleTimeout: .milliseconds(30))
    let server = try HTTPServer.start(configuration: configuration, handler: TestHandlers.echo)
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(try client.readResponse().status == 200)
    #expect(try client.serverClosedConnection())
    #expect(server.statistics.idleTimeouts == 1)
  }

  @Test(
    "A request that does not arrive within the read timeout is closed unanswered",
    arguments: [
      "GET / HTTP/1.1\r\nHost",
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nhalf",
      "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel",
    ])
  func closesASlowRequestAfterTheReadTimeout(partialRequest: String) throws {
    let configuration = HTTPServerConfiguration(
      idleTimeout: .seconds(60), readTimeout: .milliseconds(50))
    let server = try HTTPServer.start(configuration: configuration, handler: TestHandlers.echo)
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    try client.send(partialRequest)
    #expect(try client.readToEnd().isEmpty)
    #expect(server.statistics.readTimeouts == 1)
    #expect(server.statistics.idleTimeouts == 0)
    #expect(server.statistics.requestsServed == 0)
  }

  @Test func givesUpOnAClientThatDoesNotReadAfterTheWriteTimeout() throws {
    let log = LogRecorder()
    let configuration = HTTPServerConfiguration(
      writeTimeout: .milliseconds(50), requestLog: log.callback)
    // Larger than the kernel's loopback socket buffers on both ends together.
    let body = [UInt8](repeating: 0x61, count: 64 * 1024 * 1024)
    let server = try HTTPServer.start(configuration: configuration) { _ in HTTPResponse(body: body)
    }
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(log.waitForEntries())
    let entry = try #require(log.all.first)
    #expect(entry.outcome == .failed)
    #expect(entry.responseBytesSent > 0)
    #expect(entry.responseBytesSent < body.count)
    #expect(server.statistics.writeTimeouts == 1)
    #expect(server.statistics.successfulResponses == 0)
  }
}
