import Testing

@testable import HTTPServer

@Suite("Response serialization")
struct ResponseSerializerTests {
  private func wire(
    _ response: HTTPResponse, method: HTTPMethod = .get,
    connection: ResponseSerializer.ConnectionField = .none, prefix: Int? = nil
  ) -> String {
    let bytes = ResponseSerializer.serialize(
      ResponseSerializer.validated(response), requestMethod: method, connection: connection,
      bodyPrefixLength: prefix)
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test func writesStatusHeadersInOrderContentLengthAndBody() {
    let response = HTTPResponse(
      status: .ok, headers: ["Content-Type": "application/json", "X-B": "2", "x-a": "1"],
      body: Array("{}".utf8))
    #expect(
      wire(response)
        == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-B: 2\r\nx-a: 1\r\n"
        + "Content-Length: 2\r\n\r\n{}")
  }

  @Test func addsNoDateOrServerFieldSoEqualResponsesAreEqualBytes() {
    let response = HTTPResponse.text("same")
    #expect(wire(response) == wire(response))
    #expect(!wire(response).contains("Date:"))
    #expect(!wire(response).contains("Server:"))
  }

  @Test func replacesTheFramingFieldsAHandlerSet() {
    let response = HTTPResponse(
      headers: [
        "Content-Length": "999", "Transfer-Encoding": "chunked", "connection": "keep-alive",
        "X-Kept": "yes",
      ],
      body: Array("abc".utf8))
    #expect(wire(response) == "HTTP/1.1 200 OK\r\nX-Kept: yes\r\nContent-Length: 3\r\n\r\nabc")
  }

  @Test(
    arguments: [
      (ResponseSerializer.ConnectionField.none, ""),
      (.close, "Connection: close\r\n"),
      (.keepAlive, "Connection: keep-alive\r\n"),
    ])
  func writesTheConnectionField(field: ResponseSerializer.ConnectionField, expected: String) {
    #expect(
      wire(HTTPResponse(), connection: field)
        == "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\(expected)\r\n")
  }

  @Test(arguments: [HTTPStatus.noContent, .notModified])
  func sendsNeitherBodyNorLengthWhenTheStatusForbidsABody(status: HTTPStatus) {
    let response = HTTPResponse(status: status, body: Array("ignored".utf8))
    #expect(wire(response) == "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n\r\n")
  }

  @Test func sendsTheLengthButNoBodyToAHeadRequest() {
    #expect(
      wire(.text("hello"), method: .head)
        == "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 5\r\n\r\n"
    )
  }

  @Test func sendsOnlyTheBodyPrefixButTheFullLengthWhenTruncating() {
    #expect(
      wire(HTTPResponse(body: Array("0123456789".utf8)), prefix: 4)
        == "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123")
  }

  @Test func writesACustomReasonPhraseAndAnEmptyOne() {
    #expect(wire(HTTPResponse(status: HTTPStatus(code: 299))).hasPrefix("HTTP/1.1 299 \r\n"))
    #expect(
      wire(HTTPResponse(status: HTTPStatus(code: 429, reasonPhrase: "Slow Down")))
        .hasPrefix("HTTP/1.1 429 Slow Down\r\n"))
  }

  @Test(
    "Responses that cannot be sent become a 500 naming the problem",
    arguments: [
      (HTTPResponse(status: HTTPStatus(code: 101)), "status 101"),
      (HTTPResponse(status: HTTPStatus(code: 600)), "status 600"),
      (HTTPResponse(status: HTTPStatus(code: 200, reasonPhrase: "OK\r\nX: y")), "reason phrase"),
      (HTTPResponse(headers: ["X-Split": "a\r\nSet-Cookie: evil"]), "X-Split"),
      (HTTPResponse(headers: ["Bad Name": "v"]), "\"Bad Name\""),
      (HTTPResponse(headers: ["": "v"]), "\"\""),
    ])
  func replacesUnsendableResponses(response: HTTPResponse, named: String) {
    let validated = ResponseSerializer.validated(response)
    #expect(validated.status == .internalServerError)
    #expect(String(decoding: validated.body, as: UTF8.self).contains(named))
  }

  @Test func honoursAHandlersRequestToClose() {
    #expect(ResponseSerializer.asksToClose(HTTPResponse(headers: ["connection": "Close"])))
    #expect(!ResponseSerializer.asksToClose(HTTPResponse(headers: ["Connection": "keep-alive"])))
    #expect(!ResponseSerializer.asksToClose(HTTPResponse()))
  }
}
