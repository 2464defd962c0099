import Foundation
import HTTPClient
import Testing

@Suite("Response framing from a scripted loopback server")
struct ChunkedAndFramingTests {
  private func get(_ port: Int, _ path: String = "/") -> HTTPClientRequest {
    HTTPClientRequest(method: "GET", scheme: "http", host: "127.0.0.1", port: port, target: path)
  }

  @Test("a chunked body with extensions and trailers, sent in pieces, is put back together")
  func chunked() async throws {
    let server = try ScriptedServer([
      { exchange, server in
        server.record(exchange.readRequest())
        exchange.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A: 1\r\n\r\n")
        exchange.write("5;name=value\r\nhello\r\n")
        exchange.write("1")
        exchange.write("\r\n,\r\n6\r\n world\r\n0\r\nX-Trailer: yes\r\n\r\n")
        // The connection stays usable: a second request comes on it.
        server.record(exchange.readRequest())
        exchange.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        exchange.waitForClose()
      }
    ])
    let client = SocketHTTPClient.patient()
    let first = try await client.execute(get(server.port))
    #expect(first.status == 200)
    #expect(String(decoding: first.body, as: UTF8.self) == "hello, world")
    #expect(first[header: "x-a"] == "1")
    let second = try await client.execute(get(server.port))
    #expect(String(decoding: second.body, as: UTF8.self) == "ok")
    #expect(client.statistics.connectionsOpened == 1)
    client.shutDown()
    server.waitUntilFinished()
  }

  @Test("a body without a length ends with the connection; an interim 100 is skipped")
  func untilCloseAndInterim() async throws {
    let server = try ScriptedServer([
      { exchange, server in
        server.record(exchange.readRequest())
        exchange.write("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n\r\nall of it")
      }
    ])
    let client = SocketHTTPClient.patient()
    let response = try await client.execute(get(server.port))
    #expect(String(decoding: response.body, as: UTF8.self) == "all of it")
    server.waitUntilFinished()
  }

  @Test("a chunked body cut off before its last chunk is a truncated body")
  func truncatedChunks() async throws {
    let server = try ScriptedServer([
      { exchange, server in
        server.record(exchange.readRequest())
        exchange.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel")
      }
    ])
    let client = SocketHTTPClient.patient()
    let error = await #expect(throws: HTTPClientError.self) {
      _ = try await client.execute(get(server.port))
    }
    #expect(error?.kind == .truncatedBody)
    server.waitUntilFinished()
  }

  @Test("garbage instead of a status line is a malformed response naming the host")
  func malformed() async throws {
    let server = try ScriptedServer([
      { exchange, server in
        server.record(exchange.readRequest())
        exchange.write("SSH-2.0-OpenSSH_9.6\r\n\r\n")
      }
    ])
    let client = SocketHTTPClient.patient()
    let error = await #expect(throws: HTTPClientError.self) {
      _ = try await client.execute(get(server.port))
    }
    #expect(error?.kind == .malformedResponse)
    #expect(error?.message.contains("127.0.0.1:\(server.port)") == true)
    server.waitUntilFinished()
  }

  @Test("a server that never answers makes the request time out")
  func timeout() async throws {
    let server = try ScriptedServer([
      { exchange, server in
        server.record(exchange.readRequest())
        exchange.waitForClose()
      }
    ])
    var configuration = HTTPClientConfiguration()
    configuration.timeout = .milliseconds(200)
    let client = SocketHTTPClient(configuration: configuration)
    let error = await #expect(throws: HTTPClientError.self) {
      _ = try await client.execute(get(server.port))
    }
    #expect(error?.kind == .timedOut)
    client.shutDown()
    server.waitUntilFinished()
  }
}
