import Synchronization
import Testing

@testable import HTTPServer

@Suite("HTTP/1.1 over raw sockets")
struct ProtocolTests {
  @Test func answersWithExactlyTheHandlersHeadersPlusContentLength() throws {
    let server = try HTTPServer.start { _ in
      HTTPResponse(headers: ["Content-Type": "application/json"], body: Array("{\"ok\":1}".utf8))
    }
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    try client.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
    let response = try client.readResponse()
    #expect(response.status == 200)
    #expect(response.reason == "OK")
    #expect(
      response.headers.fields == [
        HTTPHeaderField(name: "Content-Type", value: "application/json"),
        HTTPHeaderField(name: "Content-Length", value: "8"),
      ])
    #expect(response.text == "{\"ok\":1}")
  }

  @Test func passesTheDecodedRequestToTheHandler() throws {
    let seen = Mutex<HTTPRequest?>(nil)
    let server = try HTTPServer.start { request in
      seen.withLock { $0 = request }
      return HTTPResponse()
    }
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    try client.send(
      "PUT /inApps/v1/history/20%2F1?status=1&status=4&revision=a%3Db HTTP/1.1\r\n"
        + "Host: localhost\r\nX-Mixed-Case: v\r\nContent-Length: 4\r\n\r\nbody")
    #expect(try client.readResponse().status == 200)
    let request = try #require(seen.withLock { $0 })
    #expect(request.method == .put)
    #expect(request.path == "/inApps/v1/history/20/1")
    #expect(request.queryValues(named: "status") == ["1", "4"])
    #expect(request.queryValue(named: "revision") == "a=b")
    #expect(request.queryValue(named: "missing") == nil)
    #expect(request.headers["x-mixed-case"] == "v")
    #expect(request.body == Array("body".utf8))
    #expect(request.version == HTTPVersion(major: 1, minor: 1))
    #expect(request.remoteAddress == SocketAddress(host: "127.0.0.1", port: client.localPort))
  }

  @Test func servesManyRequestsOnOneKeepAliveConnection() throws {
    let server = try HTTPServer.start(handler: TestHandlers.echo)
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    for index in 0..<5 {
      try client.send("GET /\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
      let response = try client.readResponse()
      #expect(response.text.contains("path=/\(index)"))
      #expect(response.headers["Connection"] == nil)
    }
    #expect(server.statistics.connectionsAccepted == 1)
    #expect(server.statistics.requestsServed == 5)
  }

  @Test func answersPipelinedRequestsInOrder() throws {
    let server = try HTTPServer.start(handler: TestHandlers.echo)
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    try client.send(
      "GET /first HTTP/1.1\r\nHost: x\r\n\r\n"
        + "POST /second HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
        + "POST /third HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
        + "GET /fourth HTTP/1.1\r\nHost: x\r\n\r\n")
    let responses = try (0..<4).map { _ in try client.readResponse() }
    #expect(responses[0].text.contains("path=/first"))
    #expect(
      responses[1].text.contains("path=/second") && responses[1].text.contains("body=hello"))
    #expect(responses[2].text.contains("path=/third") && responses[2].text.contains("body=abc"))
    #expect(responses[3].text.contains("path=/fourth"))
    #expect(server.statistics.connectionsAccepted == 1)
  }

  @Test func answersARequestThatTricklesInByteByByte() throws {
    let server = try HTTPServer.start(handler: TestHandlers.echo)
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    for byte in "POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nok".utf8 {
      try client.send([byte])
    }
    let response = try client.readResponse()
    #expect(response.text.contains("path=/slow") && response.text.contains("body=ok"))
  }

  @Test func closesAfterAnHTTP10RequestByDefault() throws {
    let server = try HTTPServer.start(handler: TestHandlers.echo)
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    try client.send("GET /old HTTP/1.0\r\n\r\n")
    let response = try client.readResponse()
    #expect(response.status == 200)
    #expect(response.headers["Connection"] == "close")
    #expect(try client.serverClosedConnection())
  }

  @Test func keepsAnHTTP10ConnectionAliveWhenAsked() throws {
    let server = try HTTPServer.start(handler: TestHandlers.echo)
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    for _ in 0..<2 {
      try client.send("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
      #expect(try client.readResponse().headers["Connection"] == "keep-alive")
    }
    #expect(server.statistics.connectionsAccepted == 1)
  }

  @Test func closesAfterConnectionCloseAndIgnoresWhatFollows() throws {
    let calls = Atomic(0)
    let server = try HTTPServer.start { _ in
      calls.add(1, ordering: .relaxed)
      return .text("once")
    }
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    try client.send(
      "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /ignored HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    let response = try client.readResponse()
    #expect(response.headers["Connection"] == "close")
    #expect(try client.serverClosedConnection())
    #expect(calls.load(ordering: .relaxed) == 1)
  }

  @Test func closesWhenTheHandlerAsksTo() throws {
    let server = try HTTPServer.start { _ in HTTPResponse(headers: ["Connection": "close"]) }
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    let response = try client.readResponse()
    #expect(response.headers.values(named: "Connection") == ["close"])
    #expect(try client.serverClosedConnection())
  }

  @Test func sendsTheLengthButNoBodyForHEAD() throws {
    let server = try HTTPServer.start { _ in .text("twelve bytes") }
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    try client.send("HEAD / HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n")
    let head = try client.readResponse(toHeadRequest: true)
    #expect(head.headers["Content-Length"] == "12")
    // Had the server sent a body for HEAD, it would be read here as the next status line.
    let get = try client.readResponse()
    #expect(get.text == "twelve bytes")
  }

  @Test func readsABodyThatArrivesInSeveralPieces() throws {
    let server = try HTTPServer.start(handler: TestHandlers.echo)
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    try client.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nhel")
    try client.send("lo wo")
    try client.send("rld")
    #expect(try client.readResponse().text.hasSuffix("body=hello world"))
  }

  @Test func readsAChunkedBodyWithExtensionsAndTrailers() throws {
    let server = try HTTPServer.start(handler: TestHandlers.echo)
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    try client.send("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
    try client.send("5;ext=1\r\nhello\r\n")
    try client.send("6\r\n world\r\n0\r\nX-Checksum: abc\r\n\r\n")
    let response = try client.readResponse()
    #expect(response.text.hasSuffix("body=hello world"))
    #expect(!response.text.contains("X-Checksum"))
  }

  @Test func answers100ContinueBeforeReadingTheBody() throws {
    let server = try HTTPServer.start(handler: TestHandlers.echo)
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    try client.send(
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
    let interim = try client.readResponse()
    #expect(interim.status == 100)
    #expect(interim.reason == "Continue")
    try client.send("data")
    let final = try client.readResponse()
    #expect(final.status == 200)
    #expect(final.text.hasSuffix("body=data"))
  }

  @Test func answers100ContinueForAChunkedBodyToo() throws {
    let server = try HTTPServer.start(handler: TestHandlers.echo)
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    try client.send(
      "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n")
    #expect(try client.readResponse().status == 100)
    try client.send("2\r\nok\r\n0\r\n\r\n")
    #expect(try client.readResponse().text.hasSuffix("body=ok"))
  }

  @Test func ignoresEmptyLinesBeforeARequest() throws {
    let server = try HTTPServer.start(handler: TestHandlers.echo)
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    try client.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\nA\r\n")
    #expect(try client.readResponse().status == 200)
    try client.send("\r\nGET /next HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(try client.readResponse().text.contains("path=/next"))
  }

  @Test func replacesAResponseThatWouldBreakFramingWith500() throws {
    let server = try HTTPServer.start { _ in
      HTTPResponse(headers: ["X-Injected": "a\r\nSet-Cookie: stolen=1"])
    }
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    let response = try client.readResponse()
    #expect(response.status == 500)
    #expect(response.headers["Set-Cookie"] == nil)
    #expect(response.text.contains("X-Injected"))
    server.stop()  // Joins the connection thread, which counts the response after sending it.
    #expect(server.statistics.serverErrorResponses == 1)
  }
}
