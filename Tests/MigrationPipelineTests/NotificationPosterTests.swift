import HTTPServer
import MigrationPipeline
import Synchronization
import Testing

/// The replay's HTTP side against the project's own loopback server (our own code on both
/// sides; Apple's library judges the payloads in `NotificationReplayEndToEndTests`): the URL a
/// replay accepts and how it names it, the request as Apple sends notifications, and how each
/// way a request can end is told apart — answered, not delivered, in doubt.
@Suite("Notification replay: the destination and the poster")
struct NotificationPosterTests {
  @Test(
    "a destination is named with its scheme and host in lowercase and without its default port",
    arguments: [
      ("https://API.Example.com/apple/n?x=1", "https://api.example.com/apple/n?x=1"),
      ("https://api.example.com:443/n", "https://api.example.com/n"),
      ("http://127.0.0.1:8080", "http://127.0.0.1:8080/"),
      ("HTTP://[::1]:9/p", "http://[::1]:9/p"),
    ])
  func destinations(text: String, named: String) throws {
    #expect(try ReplayDestination(parsing: text).description == named)
  }

  @Test(
    "a URL a replay cannot honestly send to is refused, with the reason",
    arguments: [
      ("ftp://example.com/n", "must be https"),
      ("/apple/notifications", "is not a URL"),
      ("https://user:secret@example.com/n", "user name or password"),
      ("https://example.com/n#part", "fragment"),
    ])
  func refusals(text: String, reason: String) {
    #expect {
      try ReplayDestination(parsing: text)
    } throws: { error in
      "\(error)".contains(reason) && "\(error)".contains(text)
    }
  }

  @Test("loopback destinations are told from the network's")
  func loopback() throws {
    #expect(try ReplayDestination(parsing: "http://127.0.0.1:1/").isLoopback)
    #expect(try ReplayDestination(parsing: "http://localhost/").isLoopback)
    #expect(try !ReplayDestination(parsing: "http://10.0.0.1/").isLoopback)
  }

  /// What a test server received.
  final class Received: Sendable {
    private let requests = Mutex<[HTTPRequest]>([])
    func append(_ request: HTTPRequest) { requests.withLock { $0.append(request) } }
    var all: [HTTPRequest] { requests.withLock { $0 } }
  }

  /// A server answering each request with `response`, recording what it received.
  static func serve(
    _ response: HTTPResponse, _ body: (String, Received) async throws -> Void
  ) async throws {
    let received = Received()
    let server = try HTTPServer.start { request in
      received.append(request)
      return response
    }
    defer { server.stop(gracePeriod: .milliseconds(100)) }
    try await body("http://127.0.0.1:\(server.port)/apple/notifications?k=v", received)
  }

  @Test("a POST of {\"signedPayload\": …} as application/json; a 2xx or any status is an answer")
  func answered() async throws {
    try await Self.serve(.text("accepted", status: HTTPStatus(code: 202))) { url, received in
      let poster = NotificationPoster(
        destination: try ReplayDestination(parsing: url), userAgent: "test/1")
      defer { poster.shutDown() }
      #expect(
        await poster.post(signedPayload: "aa.bb.cc") == .answered(status: 202, excerpt: "accepted"))
      let request = try #require(received.all.first)
      #expect(request.method.rawValue == "POST")
      #expect(request.path == "/apple/notifications")
      #expect(request.queryValue(named: "k") == "v")
      #expect(request.headers["Content-Type"] == "application/json")
      #expect(request.headers["User-Agent"] == "test/1")
      #expect(String(decoding: request.body, as: UTF8.self) == #"{"signedPayload":"aa.bb.cc"}"#)
    }
    try await Self.serve(.text("try later", status: HTTPStatus(code: 503))) { url, _ in
      let poster = NotificationPoster(
        destination: try ReplayDestination(parsing: url), userAgent: "test/1")
      defer { poster.shutDown() }
      #expect(
        await poster.post(signedPayload: "aa.bb.cc") == .answered(status: 503, excerpt: "try later")
      )
    }
  }

  @Test(
    "a request the server may have read but did not answer is in doubt",
    arguments: [HTTPFault.closeWithoutResponse, .truncateBody(afterBytes: 2)])
  func inDoubt(fault: HTTPFault) async throws {
    try await Self.serve(HTTPResponse(body: Array("accepted".utf8), fault: fault)) {
      url, received in
      let poster = NotificationPoster(
        destination: try ReplayDestination(parsing: url), userAgent: "test/1")
      defer { poster.shutDown() }
      let outcome = await poster.post(signedPayload: "aa.bb.cc")
      guard case .inDoubt = outcome else {
        Issue.record("\(fault): \(outcome)")
        return
      }
      #expect(received.all.count == 1, "the POST was sent again")
    }
  }

  @Test("a request that reaches no server was not delivered")
  func notDelivered() async throws {
    let server = try HTTPServer.start { _ in .text("") }
    let port = server.port
    server.stop()
    let poster = NotificationPoster(
      destination: try ReplayDestination(parsing: "http://127.0.0.1:\(port)/n"), userAgent: "t")
    defer { poster.shutDown() }
    let outcome = await poster.post(signedPayload: "aa.bb.cc")
    guard case .notDelivered = outcome else {
      Issue.record("\(outcome)")
      return
    }
  }
}
