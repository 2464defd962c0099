import Synchronization
import Testing

@testable import HTTPServer

@Suite("Concurrent connections")
struct ConcurrencyTests {
  @Test func runsFiftyHandlersAtTheSameTime() throws {
    let barrier = Barrier(count: 50)
    let server = try HTTPServer.start { request in
      // Each handler waits until all fifty are inside: only a server that really serves fifty
      // connections at once gets past this.
      barrier.arriveAndWait() ? .text(request.path) : .text("alone", status: .serviceUnavailable)
    }
    defer { server.stop() }
    let clients = try (0..<50).map { _ in try RawHTTPClient(port: server.port) }
    for (index, client) in clients.enumerated() {
      try client.send("GET /\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
    }
    for (index, client) in clients.enumerated() {
      let response = try client.readResponse()
      #expect(response.status == 200)
      #expect(response.text == "/\(index)")
    }
    #expect(server.statistics.connectionsOpen == 50)
  }

  @Test func closesTheLongestIdleConnectionToMakeRoomAtCapacity() throws {
    let configuration = HTTPServerConfiguration(maximumConnections: 2)
    let server = try HTTPServer.start(configuration: configuration, handler: TestHandlers.echo)
    defer { server.stop() }
    let oldest = try RawHTTPClient(port: server.port)
    try oldest.send("GET /oldest HTTP/1.1\r\nHost: x\r\n\r\n")
    _ = try oldest.readResponse()
    // A thread marks its connection idle just after answering; which connection has been idle
    // longest is only defined once the first has.
    #expect(waitUntil { server.core.registry.withLock { $0.idleCount } == 1 })
    let newer = try RawHTTPClient(port: server.port)
    try newer.send("GET /newer HTTP/1.1\r\nHost: x\r\n\r\n")
    _ = try newer.readResponse()
    #expect(waitUntil { server.core.registry.withLock { $0.idleCount } == 2 })

    let third = try RawHTTPClient(port: server.port)
    try third.send("GET /third HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(try third.readResponse().text.contains("path=/third"))
    #expect(try oldest.serverClosedConnection())
    try newer.send("GET /again HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(try newer.readResponse().text.contains("path=/again"))
    #expect(server.statistics.connectionsClosedForCapacity == 1)
  }

  @Test func letsANewConnectionWaitWhileEveryConnectionIsBusy() throws {
    let gate = HandlerGate()
    let order = Mutex<[String]>([])
    let configuration = HTTPServerConfiguration(maximumConnections: 1)
    let server = try HTTPServer.start(configuration: configuration) { request in
      order.withLock { $0.append(request.path) }
      if request.path == "/busy" { _ = gate.enterAndWait() }
      return .text(request.path)
    }
    defer { server.stop() }
    let busy = try RawHTTPClient(port: server.port)
    try busy.send("GET /busy HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    #expect(gate.waitForArrival())
    let waiting = try RawHTTPClient(port: server.port)
    try waiting.send("GET /waiting HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(server.statistics.connectionsAccepted == 1)
    gate.release()
    #expect(try busy.readResponse().text == "/busy")
    // Never refused with 503: the waiting connection is served as soon as a slot frees.
    #expect(try waiting.readResponse().text == "/waiting")
    #expect(order.withLock { $0 } == ["/busy", "/waiting"])
    #expect(server.statistics.connectionsClosedForCapacity == 0)
  }
}
