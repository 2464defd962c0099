import Dispatch
import Foundation
import Synchronization
import Testing

@testable import HTTPServer

@Suite("Stopping", .timeLimit(.minutes(1)))
struct ShutdownTests {
  @Test func closesIdleKeepAliveConnections() throws {
    let server = try HTTPServer.start(handler: TestHandlers.echo)
    let client = try RawHTTPClient(port: server.port)
    try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(try client.readResponse().status == 200)
    server.stop()
    #expect(try client.serverClosedConnection())
    #expect(server.statistics.connectionsOpen == 0)
  }

  @Test func letsARequestInProgressFinishAndAnswersItWithConnectionClose() throws {
    let gate = HandlerGate()
    let server = try HTTPServer.start { _ in
      _ = gate.enterAndWait()
      return .text("finished")
    }
    let client = try RawHTTPClient(port: server.port)
    try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(gate.waitForArrival())

    let stopped = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      server.stop(gracePeriod: .seconds(30))
      stopped.signal()
    }
    #expect(server.core.stoppingSignal.wait(until: .now + .seconds(10)))
    gate.release()

    let response = try client.readResponse()
    #expect(response.text == "finished")
    #expect(response.headers["Connection"] == "close")
    // As a real client does on seeing Connection: close; the server drains until it does.
    client.close()
    #expect(stopped.wait(timeout: .now() + 10) == .success)
  }

  @Test func cutsShortWhatIsStillRunningWhenTheGracePeriodEnds() throws {
    let log = LogRecorder()
    let handlerEntered = DispatchSemaphore(value: 0)
    // Were the grace period not enforced, stop() would wait an hour and the time limit would fail
    // the test.
    let configuration = HTTPServerConfiguration(
      readTimeout: .seconds(3600), writeTimeout: .seconds(3600), requestLog: log.callback)
    let server = try HTTPServer.start(configuration: configuration) { _ in
      handlerEntered.signal()
      return HTTPResponse(body: Array("late".utf8), delay: .seconds(3600))
    }
    let delayed = try RawHTTPClient(port: server.port)
    try delayed.send("GET /delayed HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(handlerEntered.wait(timeout: .now() + 10) == .success)
    let halfSent = try RawHTTPClient(port: server.port)
    try halfSent.send("GET /half HTTP/1.1\r\nHo")

    server.stop(gracePeriod: .milliseconds(20))

    #expect(try delayed.readToEnd().isEmpty)
    #expect(try halfSent.readToEnd().isEmpty)
    #expect(log.all.map(\.outcome) == [.failed])
    #expect(log.all.first?.target == "/delayed")
  }

  @Test func canBeCalledAgainAndFromSeveralThreadsAtOnce() throws {
    let server = try HTTPServer.start(handler: TestHandlers.echo)
    let done = DispatchGroup()
    for _ in 0..<4 {
      DispatchQueue.global().async(group: done) { server.stop() }
    }
    #expect(done.wait(timeout: .now() + 10) == .success)
    server.stop()
  }

  @Test func startsAndStopsManyServersInOneProcess() throws {
    for round in 0..<40 {
      let servers = try (0..<3).map { _ in try HTTPServer.start(handler: TestHandlers.echo) }
      for server in servers {
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /\(round) HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try client.readResponse().text.contains("path=/\(round)"))
      }
      for server in servers { server.stop() }
    }
  }

  // MARK: - In a child process, where no other test opens sockets or starts threads

  @Test func leavesNoSocketOrThreadBehind() async {
    await #expect(processExitsWith: .success) {
      let sockets = try ShutdownTests.openSockets()
      for _ in 0..<10 {
        try ShutdownTests.exerciseAndStopOneServer()
      }
      #expect(try ShutdownTests.openSockets() == sockets)
      #expect(try ShutdownTests.serverThreadsOnceGone() == 0)
    }
  }

  @Test func stopsAServerReleasedWithoutStop() async {
    await #expect(processExitsWith: .success) {
      let sockets = try ShutdownTests.openSockets()
      let port: Int
      do {
        let forgotten = try HTTPServer.start(handler: TestHandlers.echo)
        port = forgotten.port
        let client = try RawHTTPClient(port: port)
        try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try client.readResponse()
      }
      #expect(try ShutdownTests.openSockets() == sockets)
      #expect(try ShutdownTests.serverThreadsOnceGone() == 0)
      #expect(throws: RawHTTPClient.Failure.self) { try RawHTTPClient(port: port) }
    }
  }

  @Test func trapsWhenAHandlerStopsItsOwnServer() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let current = Mutex<HTTPServer?>(nil)
      let server = try HTTPServer.start { _ in
        current.withLock { $0 }?.stop()
        return HTTPResponse()
      }
      current.withLock { $0 = server }
      let client = try RawHTTPClient(port: server.port)
      try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
      _ = try client.readToEnd()
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("HTTPServer.stop() was called from a request handler"))
  }

  /// Starts a server, leaves it connections in every state (idle, half-sent, pipelined, with a
  /// delayed answer), stops it, and checks that it refuses connections and frees its port.
  static func exerciseAndStopOneServer() throws {
    let server = try HTTPServer.start { request in
      HTTPResponse(delay: request.path == "/delayed" ? .seconds(3600) : .zero)
    }
    let port = server.port
    let idle = try RawHTTPClient(port: port)
    try idle.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    _ = try idle.readResponse()
    let halfSent = try RawHTTPClient(port: port)
    try halfSent.send("GET / HTTP/1.1\r\n")
    let pipelined = try RawHTTPClient(port: port)
    try pipelined.send(
      "GET / HTTP/1.1\r\nHost: x\r\n\r\n" + "GET /delayed HTTP/1.1\r\nHost: x\r\n\r\n")
    _ = try pipelined.readResponse()
    // The acceptor and the idle and pipelined connections' threads, at least.
    #expect(try serverThreads() >= 3)

    server.stop(gracePeriod: .milliseconds(20))
    for client in [idle, halfSent, pipelined] {
      #expect(try client.readToEnd().isEmpty)
      client.close()
    }
    #expect(throws: RawHTTPClient.Failure.self) { try RawHTTPClient(port: port) }
    // SO_REUSEADDR: the port is free again at once, TIME_WAIT connections notwithstanding.
    let again = try HTTPServer.start(configuration: HTTPServerConfiguration(port: port)) { _ in
      HTTPResponse()
    }
    again.stop()
  }

  /// The process's open sockets: every descriptor the server creates is one. (Counting all
  /// descriptors would also count the ones Dispatch opens and closes for its own timers.)
  static func openSockets() throws -> Int {
    try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count { entry in
      let target = try? FileManager.default.destinationOfSymbolicLink(
        atPath: "/proc/self/fd/" + entry)
      return target?.hasPrefix("socket:") == true
    }
  }

  /// The server's threads still listed after it stopped, given up to two seconds to go.
  ///
  /// `pthread_join` returns once the kernel has cleared the thread's id, which happens a moment
  /// before the thread leaves `/proc/self/task`: counting at once made the shutdown tests fail
  /// now and then on a busy machine although every thread had been joined.
  static func serverThreadsOnceGone() throws -> Int {
    for _ in 0..<200 {
      guard try serverThreads() > 0 else { return 0 }
      usleep(10_000)
    }
    return try serverThreads()
  }

  /// The running threads the server named, its acceptor's and its connections'.
  static func serverThreads() throws -> Int {
    try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count { task in
      let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
      return name?.hasPrefix("http-") == true
    }
  }
}
