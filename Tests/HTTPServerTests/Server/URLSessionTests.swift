import Foundation
import Testing

@testable import HTTPServer

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The ordinary path, through the client the project really uses: URLSession on libcurl.
@Suite("URLSession against the server")
struct URLSessionTests {
  private func session(maximumConnections: Int = 6) -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 10
    configuration.httpMaximumConnectionsPerHost = maximumConnections
    return URLSession(configuration: configuration)
  }

  private func url(_ server: HTTPServer, _ pathAndQuery: String) throws -> URL {
    try #require(URL(string: "http://127.0.0.1:\(server.port)\(pathAndQuery)"))
  }

  @Test func reusesOneKeepAliveConnectionForSequentialRequests() async throws {
    let server = try HTTPServer.start(handler: TestHandlers.echo)
    defer { server.stop() }
    let session = session()
    defer { session.invalidateAndCancel() }
    for index in 0..<5 {
      let (data, response) = try await session.data(from: url(server, "/\(index)"))
      #expect((response as? HTTPURLResponse)?.statusCode == 200)
      #expect(String(decoding: data, as: UTF8.self).contains("path=/\(index)"))
    }
    // One connection for all five, unless the test was starved long enough (a loaded machine
    // running the whole suite) for the server's idle timeout to close it between requests.
    let statistics = server.statistics
    #expect(statistics.connectionsAccepted == 1 + statistics.idleTimeouts)
    #expect(statistics.requestsServed == 5)
  }

  @Test func opensANewConnectionAfterTheServerClosesOne() async throws {
    let server = try HTTPServer.start { _ in HTTPResponse(headers: ["Connection": "close"]) }
    defer { server.stop() }
    let session = session()
    defer { session.invalidateAndCancel() }
    for _ in 0..<2 {
      let (_, response) = try await session.data(from: url(server, "/"))
      #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }
    #expect(server.statistics.connectionsAccepted == 2)
  }

  @Test func deliversRepeatedQueryItemsAndHeadersAndStatus() async throws {
    let server = try HTTPServer.start { request in
      var response = HTTPResponse.text(
        request.queryValues(named: "status").joined(separator: ",") + "|"
          + (request.headers["authorization"] ?? "-"),
        status: .notFound)
      response.headers.add(name: "X-Apple-Request-Id", value: "abc")
      return response
    }
    defer { server.stop() }
    let session = session()
    defer { session.invalidateAndCancel() }
    var components = try #require(
      URLComponents(url: url(server, "/v1/x"), resolvingAgainstBaseURL: false))
    components.queryItems = [
      URLQueryItem(name: "status", value: "1"), URLQueryItem(name: "status", value: "4"),
    ]
    var request = URLRequest(url: try #require(components.url))
    request.setValue("Bearer token", forHTTPHeaderField: "Authorization")
    let (data, response) = try await session.data(for: request)
    let http = try #require(response as? HTTPURLResponse)
    #expect(http.statusCode == 404)
    #expect(http.value(forHTTPHeaderField: "x-apple-request-id") == "abc")
    #expect(String(decoding: data, as: UTF8.self) == "1,4|Bearer token")
  }

  @Test func uploadsALargeBodyThatArrivesInManySegments() async throws {
    let server = try HTTPServer.start { request in
      HTTPResponse(
        body: Array("\(request.body.count) \(request.body.reduce(0) { $0 &+ Int($1) })".utf8))
    }
    defer { server.stop() }
    let session = session()
    defer { session.invalidateAndCancel() }
    let payload = (0..<900_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    var request = URLRequest(url: try url(server, "/upload"))
    request.httpMethod = "PUT"
    request.httpBody = Data(payload)
    let (data, _) = try await session.data(for: request)
    let checksum = payload.reduce(0) { $0 &+ Int($1) }
    #expect(String(decoding: data, as: UTF8.self) == "900000 \(checksum)")
  }

  @Test func uploadsAContentLengthBody() async throws {
    let server = try HTTPServer.start(handler: TestHandlers.echo)
    defer { server.stop() }
    let session = session()
    defer { session.invalidateAndCancel() }
    var request = URLRequest(url: try url(server, "/upload"))
    request.httpMethod = "POST"
    request.httpBody = Data("{\"signedPayload\":\"x\"}".utf8)
    let (data, _) = try await session.data(for: request)
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains("method=POST"))
    #expect(text.hasSuffix("body={\"signedPayload\":\"x\"}"))
  }

  @Test func uploadsAChunkedBodyFromAStream() async throws {
    let server = try HTTPServer.start(handler: TestHandlers.echo)
    defer { server.stop() }
    let session = session()
    defer { session.invalidateAndCancel() }
    let payload = String(repeating: "stream-", count: 3000)
    var request = URLRequest(url: try url(server, "/stream"))
    request.httpMethod = "POST"
    request.httpBodyStream = InputStream(data: Data(payload.utf8))
    let (data, _) = try await session.data(for: request)
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.lowercased().contains("header:transfer-encoding=chunked"))
    #expect(text.hasSuffix("body=" + payload))
  }

  @Test func seesTheServersRefusalOfAnOversizedBody() async throws {
    let server = try HTTPServer.start(
      configuration: HTTPServerConfiguration(maximumBodyBytes: 1000), handler: TestHandlers.echo)
    defer { server.stop() }
    let session = session()
    defer { session.invalidateAndCancel() }
    var request = URLRequest(url: try url(server, "/upload"))
    request.httpMethod = "POST"
    request.httpBody = Data(repeating: 0x41, count: 4000)
    let (data, response) = try await session.data(for: request)
    #expect((response as? HTTPURLResponse)?.statusCode == 413)
    #expect(String(decoding: data, as: UTF8.self).contains("limit of 1000 bytes"))
  }

  @Test func answersFiftyConcurrentRequests() async throws {
    let server = try HTTPServer.start(handler: TestHandlers.echo)
    defer { server.stop() }
    let session = session(maximumConnections: 50)
    defer { session.invalidateAndCancel() }
    let bodies = try await withThrowingTaskGroup(of: (Int, String).self) { group in
      for index in 0..<50 {
        let target = try url(server, "/client/\(index)")
        group.addTask {
          let (data, _) = try await session.data(from: target)
          return (index, String(decoding: data, as: UTF8.self))
        }
      }
      return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
    }
    #expect(bodies.count == 50)
    for (index, body) in bodies {
      #expect(body.contains("path=/client/\(index)\n"))
    }
    #expect(server.statistics.requestsServed == 50)
  }
}
