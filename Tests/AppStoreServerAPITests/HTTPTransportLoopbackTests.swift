import AppStoreServerAPI
import Foundation
import Testing

@Suite("HTTP transports on loopback: the socket client and URLSession")
struct HTTPTransportLoopbackTests {
  @Test(
    "a request goes out with its headers and the answer comes back whole",
    arguments: HTTPClientChoice.allCases)
  func roundTrip(choice: HTTPClientChoice) async throws {
    let body = #"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"#
    let server = try LoopbackServer(
      answer: Array(
        ("HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\n"
          + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)").utf8))
    let transport = choice.makeTransport(timeout: 10)
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/inApps/v1/transactions/1"))
    let response = try await transport.send(
      HTTPRequest(
        method: "GET", url: url,
        headers: ["Authorization": "Bearer test-token", "Accept": "application/json"]))
    #expect(response.status == 404)
    #expect(response[header: "content-type"] == "application/json")
    #expect(String(decoding: response.body, as: UTF8.self) == body)
    let head = server.request()
    #expect(head.hasPrefix("GET /inApps/v1/transactions/1 HTTP/1.1\r\n"))
    #expect(head.contains("Authorization: Bearer test-token"))
  }

  @Test(
    "a body shorter than its Content-Length is a transport failure, not an answer",
    arguments: HTTPClientChoice.allCases)
  func truncated(choice: HTTPClientChoice) async throws {
    let server = try LoopbackServer(
      answer: Array(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"sig"
          .utf8))
    let transport = choice.makeTransport(timeout: 10)
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/x"))
    await #expect(throws: TransportFailure.self) {
      _ = try await transport.send(HTTPRequest(method: "GET", url: url))
    }
    _ = server.request()
  }

  @Test(
    "a connection closed without an answer, and a refused one, are transport failures",
    arguments: HTTPClientChoice.allCases)
  func closedAndRefused(choice: HTTPClientChoice) async throws {
    let server = try LoopbackServer(answer: [])
    let transport = choice.makeTransport(timeout: 10)
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/"))
    await #expect(throws: TransportFailure.self) {
      _ = try await transport.send(HTTPRequest(method: "GET", url: url))
    }
    _ = server.request()
    // The server has closed its listening socket: nothing accepts on that port any more.
    await #expect(throws: TransportFailure.self) {
      _ = try await transport.send(HTTPRequest(method: "GET", url: url))
    }
  }
}

@Suite("Choosing the HTTP client")
struct HTTPClientChoiceTests {
  @Test("the socket client unless RECEIPT_MIGRATE_HTTP_CLIENT says urlsession")
  func choice() throws {
    #expect(try HTTPClientChoice.fromEnvironment([:]) == .sockets)
    #expect(try HTTPClientChoice.fromEnvironment(["RECEIPT_MIGRATE_HTTP_CLIENT": ""]) == .sockets)
    #expect(
      try HTTPClientChoice.fromEnvironment(["RECEIPT_MIGRATE_HTTP_CLIENT": "urlsession"])
        == .urlsession)
    #expect(HTTPClientChoice.sockets.makeTransport() is SocketHTTPTransport)
    #expect(HTTPClientChoice.urlsession.makeTransport() is URLSessionTransport)
    let error = #expect(throws: ConfigurationError.self) {
      try HTTPClientChoice.fromEnvironment(["RECEIPT_MIGRATE_HTTP_CLIENT": "curl"])
    }
    #expect(error?.message.contains("use sockets or urlsession") == true)
  }

  @Test("a refused https connection reaches the caller as cannotConnect, its reason kept")
  func refusedMapped() async throws {
    // Nothing listens on port 9 of loopback (discard is not run): the refusal is mapped too.
    let transport = SocketHTTPTransport(timeout: 5)
    let url = try #require(URL(string: "https://127.0.0.1:9/inApps/v1/history/1"))
    let error = await #expect(throws: TransportFailure.self) {
      _ = try await transport.send(HTTPRequest(method: "GET", url: url))
    }
    guard case .cannotConnect(let detail)? = error else {
      Issue.record("expected cannotConnect, got \(String(describing: error))")
      return
    }
    #expect(detail.contains("127.0.0.1:9"))
  }
}
