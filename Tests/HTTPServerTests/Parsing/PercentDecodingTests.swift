import Testing

@testable import HTTPServer

@Suite("Percent-decoding")
struct PercentDecodingTests {
  @Test(
    arguments: [
      ("", ""), ("plain", "plain"), ("a%20b", "a b"), ("%41%62", "Ab"), ("%e2%82%ac", "€"),
      ("100%25", "100%"), ("a+b", "a+b"),
    ])
  func decodes(encoded: String, decoded: String) {
    #expect(PercentDecoding.decode(Array(encoded.utf8)) == decoded)
  }

  @Test(arguments: ["%", "%4", "%G0", "a%2", "%C3", "%FF%FE"])
  func refusesMalformedEscapesAndInvalidUTF8(encoded: String) {
    #expect(PercentDecoding.decode(Array(encoded.utf8)) == nil)
  }
}
