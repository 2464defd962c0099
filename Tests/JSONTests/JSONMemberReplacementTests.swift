import JSON
import Testing

/// Replacing one member's values leaves every other byte of the document as it was. Evidence:
/// our own code against hand-written documents.
@Suite("JSONMemberReplacement")
struct JSONMemberReplacementTests {
  static func replaced(_ text: String) -> String? {
    Array(text.utf8).withUnsafeBytes { bytes in
      JSONMemberReplacement.replacingValues(
        of: "latest_receipt", nestedIn: ["response"], with: Array(#""-""#.utf8), in: bytes)
    }.map { String(decoding: $0, as: UTF8.self) }
  }

  @Test(
    "the member's value is replaced at the top level and inside response, nothing else changes",
    arguments: [
      (
        #"{"status":0,"latest_receipt":"MIIabc","x":1}"#,
        #"{"status":0,"latest_receipt":"-","x":1}"#
      ),
      (
        #"{"account_id":"a","response":{ "status" : 0 , "latest_receipt" : "MII\u0041" , "n":1.50}}"#,
        #"{"account_id":"a","response":{ "status" : 0 , "latest_receipt" : "-" , "n":1.50}}"#
      ),
      (
        #"{"latest_receipt":null,"response":{"latest_receipt":{"a":[1]}}}"#,
        #"{"latest_receipt":"-","response":{"latest_receipt":"-"}}"#
      ),
      (
        #"{"latest_receipt\u005f":"x","latest_receipt":1}"#,
        #"{"latest_receipt\u005f":"x","latest_receipt":"-"}"#
      ),
    ])
  func replaces(document: String, expected: String) {
    #expect(Self.replaced(document) == expected)
  }

  @Test(
    "nothing to replace, or not a JSON object: nil, and the caller keeps the bytes",
    arguments: [
      #"{"status":0}"#, #"{"other":{"latest_receipt":"x"}}"#, #"["latest_receipt"]"#,
      #"{"latest_receipt":"unterminated"#, "account_id,original_transaction_id", "",
    ])
  func leavesAlone(document: String) {
    #expect(Self.replaced(document) == nil)
  }
}
