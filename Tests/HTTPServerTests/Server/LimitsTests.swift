import Synchronization
import Testing

@testable import HTTPServer

@Suite("Limits and refusals over raw sockets")
struct LimitsTests {
  static let configuration = HTTPServerConfiguration(
    maximumHeaderBytes: 1024, maximumBodyBytes: 100)

  static let longTarget = "/" + String(repeating: "a", count: 1100)
  static let manyHeaders = (0..<40).map {
    "X-Header-\($0): \(String(repeating: "v", count: 30))\r\n"
  }
  .joined()

  @Test(
    "Refused requests get their status, a reason, Connection: close, and a closed connection",
    arguments: [
      ("GET \(longTarget) HTTP/1.1\r\nHost: x\r\n\r\n", 431),
      ("GET / HTTP/1.1\r\nHost: x\r\n\(manyHeaders)\r\n", 431),
      ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 101\r\n\r\n", 413),
      ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n", 413),
      ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n65\r\n", 413),
      ("GET / HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n", 400),
      ("GET / HTTP/1.1\r\n\r\n", 400),
      ("GET / HTTP/1.1\nHost: x\r\n\r\n", 400),
      (
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400
      ),
      ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
      ("\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\u{00}\u{01}\u{fc}\u{03}\u{03}\r\n\r\n", 400),
      ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
      ("GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505),
      ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nExpect: later\r\n\r\n", 417),
    ])
  func refusesWithTheRightStatusAndCloses(request: String, status: Int) throws {
    let calls = Atomic(0)
    let server = try HTTPServer.start(configuration: Self.configuration) { _ in
      calls.add(1, ordering: .relaxed)
      return HTTPResponse()
    }
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    // A valid request pipelined behind the refused one must not be served.
    try client.send(request + "GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
    let response = try client.readResponse()
    #expect(response.status == status)
    #expect(response.headers["Connection"] == "close")
    #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
    #expect(!response.body.isEmpty)
    #expect(try client.serverClosedConnection())
    #expect(server.statistics.requestsRejected == 1)
    #expect(calls.load(ordering: .relaxed) == 0)
  }

  @Test func refusesAHeadBlockThatNeverEndsOnceItPassesTheLimit() throws {
    let server = try HTTPServer.start(configuration: Self.configuration, handler: TestHandlers.echo)
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    try client.send("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 2000))
    #expect(try client.readResponse().status == 431)
  }

  @Test func refusesAnOversizedBodyBeforeAnswering100Continue() throws {
    let server = try HTTPServer.start(configuration: Self.configuration, handler: TestHandlers.echo)
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    try client.send(
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n")
    #expect(try client.readResponse().status == 413)
  }

  @Test func acceptsABodyAndAHeadOfExactlyTheLimits() throws {
    let server = try HTTPServer.start(configuration: Self.configuration, handler: TestHandlers.echo)
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    let body = String(repeating: "b", count: 100)
    try client.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n\(body)")
    #expect(try client.readResponse().status == 200)
    try client.send(
      "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n64\r\n\(body)\r\n0\r\n\r\n"
    )
    #expect(try client.readResponse().status == 200)
    let head = "GET / HTTP/1.1\r\nHost: x\r\nX: "
    let filler = String(repeating: "h", count: 1024 - head.utf8.count - 4)
    try client.send(head + filler + "\r\n\r\n")
    #expect(try client.readResponse().status == 200)
  }

  @Test func reportsTheLimitInTheReason() throws {
    let server = try HTTPServer.start(configuration: Self.configuration, handler: TestHandlers.echo)
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    try client.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 101\r\n\r\n")
    let response = try client.readResponse()
    #expect(response.text == "the request body exceeds the server's limit of 100 bytes\n")
  }
}
