import Dispatch
import Synchronization
import Testing

@testable import HTTPServer

@Suite("Statistics and request log")
struct ObservabilityTests {
  static let handler: HTTPServer.Handler = { request in
    switch request.path {
    case "/missing": .text("no", status: .notFound)
    case "/broken": .text("oops", status: .internalServerError)
    case "/moved": HTTPResponse(status: HTTPStatus(code: 301), headers: ["Location": "/"])
    case "/drop": HTTPResponse(fault: .closeWithoutResponse)
    default: .text("fine")
    }
  }

  @Test func countsConnectionsRequestsAndStatusClassesExactly() throws {
    let server = try HTTPServer.start(handler: Self.handler)
    var bytesSentByClients = 0

    let keepAlive = try RawHTTPClient(port: server.port)
    for path in ["/", "/", "/missing", "/broken", "/moved"] {
      let request = "GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n"
      try keepAlive.send(request)
      _ = try keepAlive.readResponse()
      bytesSentByClients += request.utf8.count
    }
    for request in ["GET / HTTP/1.1\r\n\r\n", "GET /drop HTTP/1.1\r\nHost: x\r\n\r\n"] {
      let client = try RawHTTPClient(port: server.port)
      try client.send(request)
      bytesSentByClients += request.utf8.count
      _ = try client.readToEnd()
      client.close()
    }

    server.stop()
    let statistics = server.statistics
    #expect(statistics.connectionsAccepted == 3)
    #expect(statistics.connectionsOpen == 0)
    #expect(statistics.requestsServed == 6)
    #expect(statistics.requestsRejected == 1)
    #expect(statistics.successfulResponses == 2)
    #expect(statistics.redirectionResponses == 1)
    #expect(statistics.clientErrorResponses == 2)
    #expect(statistics.serverErrorResponses == 1)
    #expect(statistics.faultsClosedWithoutResponse == 1)
    #expect(statistics.faultsTruncatedBody == 0)
    #expect(statistics.bytesReceived == bytesSentByClients)
    #expect(statistics.idleTimeouts == 0)
    #expect(statistics.readTimeouts == 0)
    #expect(statistics.writeTimeouts == 0)
  }

  @Test func countsEveryByteWrittenAndRead() throws {
    let server = try HTTPServer.start(handler: Self.handler)
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    let request = "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    try client.send(request)
    let wire = try client.readToEnd()
    client.close()
    server.stop()
    #expect(server.statistics.bytesReceived == request.utf8.count)
    #expect(server.statistics.bytesSent == wire.count)
  }

  @Test func logsEveryFinishedRequestWithItsOutcome() throws {
    let log = LogRecorder()
    let configuration = HTTPServerConfiguration(requestLog: log.callback)
    let server = try HTTPServer.start(configuration: configuration, handler: Self.handler)
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    try client.send("POST /missing?x=%20 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
    _ = try client.readResponse()
    try client.send("GET /drop HTTP/1.1\r\nHost: x\r\n\r\n")
    _ = try client.readToEnd()
    let refused = try RawHTTPClient(port: server.port)
    try refused.send("NOT HTTP\r\n\r\n")
    _ = try refused.readToEnd()
    refused.close()
    #expect(log.waitForEntries(3))

    let entries = log.all
    #expect(entries.count == 3)
    let missing = try #require(entries.first { $0.target == "/missing?x=%20" })
    #expect(missing.method == .post)
    #expect(missing.status == .notFound)
    #expect(missing.reachedHandler)
    #expect(missing.outcome == .sent)
    #expect(missing.requestBodyBytes == 3)
    #expect(missing.responseBytesSent > 0)
    #expect(missing.remoteAddress.port == client.localPort)
    #expect(missing.duration >= .zero)

    let dropped = try #require(entries.first { $0.target == "/drop" })
    #expect(dropped.status == nil)
    #expect(dropped.outcome == .closedWithoutResponse)
    #expect(dropped.responseBytesSent == 0)

    let malformed = try #require(entries.first { $0.target == nil })
    #expect(malformed.method == nil)
    #expect(malformed.status == .badRequest)
    #expect(!malformed.reachedHandler)
    #expect(malformed.outcome == .sent)
  }

  @Test func readsStatisticsSafelyWhileRequestsAreServed() throws {
    let server = try HTTPServer.start(handler: Self.handler)
    defer { server.stop() }
    let reading = Atomic(true)
    let readerDone = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      var last = 0
      while reading.load(ordering: .relaxed) {
        let served = server.statistics.requestsServed
        #expect(served >= last)
        last = served
      }
      readerDone.signal()
    }
    let client = try RawHTTPClient(port: server.port)
    for _ in 0..<200 {
      try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
      _ = try client.readResponse()
    }
    reading.store(false, ordering: .relaxed)
    #expect(readerDone.wait(timeout: .now() + 10) == .success)
    #expect(server.statistics.requestsServed == 200)
  }
}
