import AppStoreServerAPI
import Foundation
import Testing

@Suite("URLSession transport on loopback")
struct URLSessionTransportTests {
  @Test("a request goes out with its headers and the answer comes back whole")
  func roundTrip() async throws {
    let body = #"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"#
    let server = try LoopbackServer(
      answer: Array(
        ("HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\n"
          + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)").utf8))
    let transport = URLSessionTransport(timeout: 10)
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

  @Test("a body shorter than its Content-Length is a transport failure, not an answer")
  func truncated() async throws {
    let server = try LoopbackServer(
      answer: Array(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"sig"
          .utf8))
    let transport = URLSessionTransport(timeout: 10)
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/x"))
    await #expect(throws: TransportFailure.self) {
      _ = try await transport.send(HTTPRequest(method: "GET", url: url))
    }
    _ = server.request()
  }

  @Test("a connection closed without an answer, and a refused one, are transport failures")
  func closedAndRefused() async throws {
    let server = try LoopbackServer(answer: [])
    let transport = URLSessionTransport(timeout: 10)
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
