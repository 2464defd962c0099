import Testing

@testable import HTTPServer

@Suite("Request head parsing")
struct RequestHeadParserTests {
  /// Parses `lines` joined by CRLF, without the final blank line, as the parser sees a head.
  private func parse(_ lines: [String]) throws(RequestRejection) -> RequestHead {
    try parse(bytes: Array(lines.joined(separator: "\r\n").utf8))
  }

  private func parse(bytes: [UInt8]) throws(RequestRejection) -> RequestHead {
    try bytes.withUnsafeBufferPointer { buffer throws(RequestRejection) in
      try RequestHeadParser.parse(buffer)
    }
  }

  private func rejection(_ lines: [String]) -> RequestRejection? {
    rejection(bytes: Array(lines.joined(separator: "\r\n").utf8))
  }

  private func rejection(bytes: [UInt8]) -> RequestRejection? {
    do throws(RequestRejection) {
      _ = try parse(bytes: bytes)
      return nil
    } catch {
      return error
    }
  }

  // MARK: - Accepted requests

  @Test func parsesMethodPathQueryVersionAndHeadersInOrder() throws {
    let head = try parse([
      "POST /inApps/v1/history/42?revision=abc&status=1&status=4 HTTP/1.1",
      "Host: 127.0.0.1:8080",
      "X-Trace: one",
      "x-trace: two",
      "Content-Length: 3",
    ])
    #expect(head.method == .post)
    #expect(head.target == "/inApps/v1/history/42?revision=abc&status=1&status=4")
    #expect(head.path == "/inApps/v1/history/42")
    #expect(
      head.queryItems == [
        HTTPQueryItem(name: "revision", value: "abc"),
        HTTPQueryItem(name: "status", value: "1"),
        HTTPQueryItem(name: "status", value: "4"),
      ])
    #expect(head.version == HTTPVersion(major: 1, minor: 1))
    #expect(head.headers.values(named: "X-TRACE") == ["one", "two"])
    #expect(head.headers["host"] == "127.0.0.1:8080")
    #expect(head.framing == .contentLength(3))
    #expect(head.keepAlive)
    #expect(!head.expectsContinue)
  }

  @Test(
    "Percent-decoding of paths and query items",
    arguments: [
      ("/a%20b", "/a b", [HTTPQueryItem]()),
      ("/caf%C3%A9", "/café", []),
      ("/x?q=a+b", "/x", [HTTPQueryItem(name: "q", value: "a+b")]),
      (
        "/x?q=a%2Bb&r=%26%3D", "/x",
        [.init(name: "q", value: "a+b"), .init(name: "r", value: "&=")]
      ),
      (
        "/x?flag&=v&a=b=c&&", "/x",
        [
          .init(name: "flag", value: ""), .init(name: "", value: "v"),
          .init(name: "a", value: "b=c"),
        ]
      ),
      ("/x?", "/x", []),
      ("http://example.com/p?q=1", "/p", [.init(name: "q", value: "1")]),
      ("HTTPS://example.com", "/", []),
      ("http://example.com?q=1", "/", [.init(name: "q", value: "1")]),
    ])
  func decodesTargets(target: String, path: String, query: [HTTPQueryItem]) throws {
    let head = try parse(["GET \(target) HTTP/1.1", "Host: x"])
    #expect(head.path == path)
    #expect(head.queryItems == query)
  }

  @Test func keepsAnUnknownMethodTokenAsSent() throws {
    #expect(try parse(["get / HTTP/1.1", "Host: x"]).method.rawValue == "get")
    #expect(try parse(["PROPFIND / HTTP/1.1", "Host: x"]).method.rawValue == "PROPFIND")
  }

  @Test func trimsOptionalWhitespaceAroundFieldValues() throws {
    let head = try parse(["GET / HTTP/1.1", "Host:x", "A: \t spaced out \t", "B:"])
    #expect(head.headers["A"] == "spaced out")
    #expect(head.headers["B"] == "")
  }

  @Test func answersALaterMinorVersionAsHTTP11() throws {
    #expect(try parse(["GET / HTTP/1.2", "Host: x"]).version == HTTPVersion(major: 1, minor: 1))
  }

  @Test(
    "Keep-alive from version and Connection",
    arguments: [
      (["GET / HTTP/1.1", "Host: x"], true),
      (["GET / HTTP/1.1", "Host: x", "Connection: close"], false),
      (["GET / HTTP/1.1", "Host: x", "Connection: Upgrade, CLOSE"], false),
      (["GET / HTTP/1.0"], false),
      (["GET / HTTP/1.0", "Connection: keep-alive"], true),
      (["GET / HTTP/1.0", "Connection: Keep-Alive", "Connection: close"], false),
    ])
  func decidesKeepAlive(lines: [String], keepAlive: Bool) throws {
    #expect(try parse(lines).keepAlive == keepAlive)
  }

  @Test(
    "Body framing",
    arguments: [
      (["GET / HTTP/1.1", "Host: x"], BodyFraming.none),
      (["POST / HTTP/1.1", "Host: x", "Content-Length: 0"], .none),
      (["POST / HTTP/1.1", "Host: x", "Content-Length: 12"], .contentLength(12)),
      (
        ["POST / HTTP/1.1", "Host: x", "Content-Length: 7, 7", "content-length: 7"],
        .contentLength(7)
      ),
      (["POST / HTTP/1.1", "Host: x", "Transfer-Encoding: Chunked"], .chunked),
      (
        ["POST / HTTP/1.1", "Host: x", "Content-Length: 99999999999999999999999"],
        .contentLength(Int.max)
      ),
    ])
  func decidesFraming(lines: [String], framing: BodyFraming) throws {
    #expect(try parse(lines).framing == framing)
  }

  @Test func expectsContinueOnlyForHTTP11RequestsWithABody() throws {
    let withBody = ["POST / HTTP/1.1", "Host: x", "Content-Length: 5", "Expect: 100-Continue"]
    #expect(try parse(withBody).expectsContinue)
    #expect(try !parse(["GET / HTTP/1.1", "Host: x", "Expect: 100-continue"]).expectsContinue)
    #expect(
      try !parse(["POST / HTTP/1.0", "Content-Length: 5", "Expect: 100-continue"]).expectsContinue)
    #expect(try !parse(["POST / HTTP/1.0", "Content-Length: 5", "Expect: other"]).expectsContinue)
  }

  // MARK: - Refused requests

  @Test(
    "Malformed requests are answered 400",
    arguments: [
      ["GET / HTTP/1.1", "Host: x\nX-Bare: lf"],
      ["GET / HTTP/1.1", "Host: x\rX-Bare: cr"],
      ["GET  / HTTP/1.1", "Host: x"],
      ["GET / HTTP/1.1 ", "Host: x"],
      ["GET /", "Host: x"],
      ["GET / FTP/1.1", "Host: x"],
      ["GET / HTTP/1.x", "Host: x"],
      ["G@T / HTTP/1.1", "Host: x"],
      [" GET / HTTP/1.1", "Host: x"],
      ["GET / HTTP/1.1", "Host : x"],
      ["GET / HTTP/1.1", "Host: x", " folded"],
      ["GET / HTTP/1.1", "Host: x", "NoColon"],
      ["GET / HTTP/1.1", ": empty name"],
      ["GET / HTTP/1.1", "Host: x", "X: a\u{01}b"],
      ["GET / HTTP/1.1", "Host: x", "X: a\u{7F}b"],
      ["GET / HTTP/1.1"],
      ["GET / HTTP/1.1", "Host: a", "Host: b"],
      ["GET / HTTP/1.0", "Host: a", "Host: a"],
      ["GET relative HTTP/1.1", "Host: x"],
      ["GET * HTTP/1.1", "Host: x"],
      ["GET ftp://x/ HTTP/1.1", "Host: x"],
      ["GET /a#fragment HTTP/1.1", "Host: x"],
      ["GET /%zz HTTP/1.1", "Host: x"],
      ["GET /%4 HTTP/1.1", "Host: x"],
      ["GET /%FF HTTP/1.1", "Host: x"],
      ["GET /?q=%C3 HTTP/1.1", "Host: x"],
      ["GET /caf\u{E9} HTTP/1.1", "Host: x"],
      ["POST / HTTP/1.1", "Host: x", "Content-Length: -1"],
      ["POST / HTTP/1.1", "Host: x", "Content-Length: 1e3"],
      ["POST / HTTP/1.1", "Host: x", "Content-Length: 5, 6"],
      ["POST / HTTP/1.1", "Host: x", "Content-Length: 5", "Content-Length: 6"],
      ["POST / HTTP/1.1", "Host: x", "Content-Length: 5", "Transfer-Encoding: chunked"],
      ["POST / HTTP/1.1", "Host: x", "Transfer-Encoding: chunked, chunked"],
      ["POST / HTTP/1.1", "Host: x", "Transfer-Encoding: ,"],
      ["POST / HTTP/1.0", "Transfer-Encoding: chunked"],
      [""],
    ])
  func refusesMalformedRequests(lines: [String]) {
    #expect(rejection(lines)?.status == .badRequest)
  }

  @Test func refusesInvalidUTF8InAFieldValue() {
    let bytes = Array("GET / HTTP/1.1\r\nHost: x\r\nX: ".utf8) + [0xC3, 0x28]
    #expect(rejection(bytes: bytes)?.status == .badRequest)
  }

  @Test(
    "Transfer codings other than chunked are answered 501",
    arguments: ["gzip", "gzip, chunked", "chunked, gzip", "identity"])
  func refusesUnsupportedTransferCodings(coding: String) {
    let refused = rejection(["POST / HTTP/1.1", "Host: x", "Transfer-Encoding: \(coding)"])
    #expect(refused?.status == .notImplemented)
  }

  @Test(arguments: ["HTTP/2.0", "HTTP/0.9", "HTTP/3.0"])
  func refusesOtherMajorVersionsWith505(version: String) {
    #expect(rejection(["GET / \(version)", "Host: x"])?.status == .httpVersionNotSupported)
  }

  @Test func refusesUnknownExpectationsWith417() {
    let refused = rejection(["POST / HTTP/1.1", "Host: x", "Content-Length: 1", "Expect: 200-ok"])
    #expect(refused?.status == .expectationFailed)
    #expect(refused?.reason.contains("200-ok") == true)
  }

  @Test func namesTheProblemInTheReason() {
    let reason = rejection(["GET / HTTP/1.1", "Host: x", "Bad Name: v"])?.reason ?? ""
    #expect(reason.contains("\"Bad Name\""))
    #expect(reason.contains("not a token"))
  }

  @Test func quotesHostileBytesSafely() {
    let reason = rejection(["G\u{1B}[31mT / HTTP/1.1", "Host: x"])?.reason ?? ""
    #expect(reason.contains("\\x1B"))
    #expect(!reason.contains("\u{1B}"))
  }
}
