import Testing

@testable import HTTPServer

@Suite("Header fields")
struct HTTPHeadersTests {
  @Test func looksUpNamesWithoutRegardToCase() {
    let headers: HTTPHeaders = ["Content-Type": "a", "X-Id": "1", "x-ID": "2"]
    #expect(headers["content-type"] == "a")
    #expect(headers["CONTENT-TYPE"] == "a")
    #expect(headers["x-id"] == "1")
    #expect(headers.values(named: "X-ID") == ["1", "2"])
    #expect(headers.contains("x-iD"))
    #expect(headers["Missing"] == nil)
    #expect(headers.values(named: "Missing").isEmpty)
  }

  @Test func comparesOnlyASCIILettersWithoutCase() {
    #expect(HTTPHeaders.namesMatch("ETag", "etag"))
    #expect(!HTTPHeaders.namesMatch("ETag", "ETa"))
    #expect(!HTTPHeaders.namesMatch("a-b", "a_b"))
    #expect(!HTTPHeaders.namesMatch("[", "{"))
  }

  @Test func addsReplacesAndRemovesKeepingOrder() {
    var headers: HTTPHeaders = ["A": "1", "B": "2", "a": "3"]
    headers.add(name: "C", value: "4")
    #expect(headers.fields.map(\.name) == ["A", "B", "a", "C"])
    headers.replaceOrAdd(name: "A", value: "5")
    #expect(headers.fields.map(\.value) == ["2", "4", "5"])
    headers.remove(name: "b")
    #expect(headers.fields == [.init(name: "C", value: "4"), .init(name: "A", value: "5")])
  }
}
