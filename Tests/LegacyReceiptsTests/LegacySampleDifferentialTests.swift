import Foundation
import JSON
import Testing

/// The byte-level reader and Foundation's `JSONSerialization` must read every fixture of the
/// hand-made sample identically.
@Suite("JSON reader on the legacy sample")
struct LegacySampleDifferentialTests {
  @Test("every NDJSON line and JSON file of Legacy/handmade parses the same way as Foundation")
  func sampleFiles() throws {
    let handmade = legacyDirectory.appendingPathComponent("handmade")
    var documents: [Data] = []
    let lines = try String(
      contentsOf: handmade.appendingPathComponent("cases.ndjson"), encoding: .utf8)
    documents += lines.split(separator: "\n").map { Data($0.utf8) }
    let responses = handmade.appendingPathComponent("responses")
    for name in try FileManager.default.contentsOfDirectory(atPath: responses.path) {
      documents.append(try Data(contentsOf: responses.appendingPathComponent(name)))
    }
    #expect(documents.count == 23)
    for document in documents {
      let ours = try JSONValue(parsing: Array(document))
      let theirs = try JSONSerialization.jsonObject(with: document)
      #expect(Self.same(ours, theirs))
    }
  }

  static func same(_ ours: JSONValue, _ theirs: Any) -> Bool {
    switch ours {
    case .null: return theirs is NSNull
    case .bool(let flag): return (theirs as? Bool) == flag
    case .number(let text):
      guard let number = theirs as? NSNumber else { return false }
      if let exact = ours.int64Value { return number.int64Value == exact }
      return number.doubleValue == Double(text)
    case .string(let text): return (theirs as? String) == text
    case .array(let elements):
      guard let array = theirs as? [Any], array.count == elements.count else { return false }
      return zip(elements, array).allSatisfy { same($0, $1) }
    case .object(let members):
      guard let dictionary = theirs as? [String: Any], dictionary.count == members.count else {
        return false
      }
      return members.allSatisfy { member in
        dictionary[member.key].map { same(member.value, $0) } ?? false
      }
    }
  }
}
