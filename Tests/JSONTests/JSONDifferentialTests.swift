import Foundation
import JSON
import Testing

/// Checks the reader against Foundation's `JSONSerialization` on generated documents: both must
/// accept the same documents and produce the same values, and both must reject the same
/// mutilated ones.
@Suite("JSONReader against JSONSerialization")
struct JSONDifferentialTests {
  @Test("agrees on thousands of generated documents", arguments: 0..<4)
  func generatedDocuments(seed: UInt64) throws {
    var generator = DocumentGenerator(seed: seed)
    for _ in 0..<500 {
      let text = generator.document()
      let bytes = Array(text.utf8)
      let ours = try JSONValue(parsing: bytes)
      let theirs = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
      #expect(Self.equivalent(ours, theirs), "document: \(text)")
    }
  }

  @Test("agrees on which mutated documents are valid", arguments: 0..<4)
  func mutatedDocuments(seed: UInt64) {
    var generator = DocumentGenerator(seed: seed &+ 100)
    var disagreements: [String] = []
    for _ in 0..<1500 {
      var bytes = Array(generator.document().utf8)
      generator.mutate(&bytes)
      let oursAccepts = (try? JSONValue(parsing: bytes)) != nil
      let theirsAccepts =
        (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
      if oursAccepts != theirsAccepts
        && !Self.isDocumentedDivergence(bytes, oursAccepts: oursAccepts)
      {
        disagreements.append(
          "ours \(oursAccepts), Foundation \(theirsAccepts): \(String(decoding: bytes, as: UTF8.self))"
        )
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
  }

  /// The two places where the reader deliberately differs from Foundation on Linux: it follows
  /// RFC 8259 and refuses a trailing comma (`[1,]`), which Foundation accepts; and it accepts a
  /// number whose exponent overflows a `Double` (`1e999`) because the grammar allows it —
  /// reading it as a `Double` later fails with `numberOutOfRange`.
  static func isDocumentedDivergence(_ bytes: [UInt8], oursAccepts: Bool) -> Bool {
    let text = String(decoding: bytes, as: UTF8.self)
    if oursAccepts {
      return text.range(of: #"[eE][+-]?[0-9]{3,}"#, options: .regularExpression) != nil
    }
    return text.range(of: #",\s*[\]}]"#, options: .regularExpression) != nil
  }

  /// Structural equality between our value and Foundation's, with numbers compared exactly when
  /// both are integers and as doubles otherwise.
  static func equivalent(_ ours: JSONValue, _ theirs: Any) -> Bool {
    switch ours {
    case .null: return theirs is NSNull
    case .bool(let flag): return (theirs as? Bool) == flag
    case .number(let text):
      guard let number = theirs as? NSNumber else { return false }
      if let exact = ours.int64Value, !text.contains("."), !text.lowercased().contains("e") {
        return number.int64Value == exact || number.doubleValue == Double(exact)
      }
      return abs(number.doubleValue - (Double(text) ?? .nan)) <= abs(number.doubleValue) * 1e-12
    case .string(let text): return (theirs as? String) == text
    case .array(let elements):
      guard let array = theirs as? [Any], array.count == elements.count else { return false }
      return zip(elements, array).allSatisfy { equivalent($0, $1) }
    case .object(let members):
      guard let dictionary = theirs as? [String: Any] else { return false }
      // Duplicate keys: Foundation keeps one; compare on the distinct keys.
      let keys = Set(members.map(\.key))
      guard dictionary.count == keys.count else { return false }
      return members.allSatisfy { member in
        guard let other = dictionary[member.key] else { return false }
        let last = members.last { $0.key == member.key }?.value ?? member.value
        return equivalent(member.value, other) || equivalent(last, other)
      }
    }
  }

}

/// Generates random JSON text with the features that break parsers: escapes of every kind,
/// multi-byte UTF-8, surrogate pairs, large and negative numbers, exponents, deep nesting and
/// irregular whitespace.
struct DocumentGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }

  mutating func next() -> UInt64 {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
    return state
  }

  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

  mutating func document() -> String { value(depth: 0) }

  mutating func whitespace() -> String {
    ["", "", "", " ", "\n", "\t", "  \r\n "][below(7)]
  }

  mutating func value(depth: Int) -> String {
    let choice = depth > 5 ? below(5) : below(8)
    switch choice {
    case 0: return "null"
    case 1: return below(2) == 0 ? "true" : "false"
    case 2, 3: return number()
    case 4: return string()
    case 5:
      let count = below(5)
      let elements = (0..<count).map { _ in whitespace() + value(depth: depth + 1) + whitespace() }
      return "[" + elements.joined(separator: ",") + "]"
    default:
      let count = below(6)
      let members = (0..<count).map { index in
        whitespace() + string(key: index) + whitespace() + ":" + whitespace()
          + value(depth: depth + 1) + whitespace()
      }
      return "{" + members.joined(separator: ",") + "}"
    }
  }

  mutating func number() -> String {
    switch below(8) {
    case 0: return String(Int64(bitPattern: next()))
    case 1: return String(below(1000))
    case 2: return "-" + String(below(100_000))
    case 3: return String(below(1000)) + "." + String(below(1000))
    case 4: return String(below(10)) + "e" + ["", "+", "-"][below(3)] + String(below(20))
    case 5: return "1000000" + String(100_000_000 + below(899_999_999))
    case 6: return "0." + String(repeating: "0", count: below(4)) + String(below(99) + 1)
    default: return "-" + String(below(10)) + "." + String(below(10)) + "E" + String(below(5))
    }
  }

  mutating func string(key: Int? = nil) -> String {
    var text = "\""
    if let key { text += "k\(key)" }
    for _ in 0..<below(12) {
      switch below(12) {
      case 0: text += "\\\""
      case 1: text += "\\\\"
      case 2: text += ["\\n", "\\t", "\\r", "\\b", "\\f", "\\/"][below(6)]
      case 3: text += String(format: "\\u%04x", 0x20 + below(0xD000))
      case 4: text += "\\ud83d\\ude0" + String(below(10))
      case 5: text += ["é", "中", "😀", "Ω", "\u{10FFFF}"][below(5)]
      case 6: text += String(repeating: "x", count: below(40))
      default: text += String(UnicodeScalar(UInt8(0x61 + below(26))))
      }
    }
    return text + "\""
  }

  /// Damages a document the way real files get damaged: cut, a byte dropped, a byte replaced
  /// with a structural character, an invalid UTF-8 byte inserted.
  mutating func mutate(_ bytes: inout [UInt8]) {
    guard !bytes.isEmpty else { return }
    let position = below(bytes.count)
    switch below(5) {
    case 0: bytes.removeSubrange(position...)
    case 1: bytes.remove(at: position)
    case 2:
      let structural = Array("{}[],:\"\\ 0-e.".utf8)
      bytes[position] = structural[below(structural.count)]
    case 3: bytes.insert([0xFF, 0xC3, 0x80, 0xE2][below(4)], at: position)
    default: bytes.insert(contentsOf: Array(",]}".utf8)[below(3)...].prefix(1), at: position)
    }
  }
}
