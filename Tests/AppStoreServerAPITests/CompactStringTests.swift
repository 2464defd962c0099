import CompactEncoding
import Testing

/// `CompactReader.string()` accepts exactly the well-formed UTF-8 strings. The judge is the
/// standard library's own validation, `String(validating:as:)`, which the reader no longer calls
/// (it decodes and checks that the result spells the bytes back): code nobody here wrote, over
/// every byte string of up to four bytes drawn from the bytes where UTF-8's rules change.
@Suite("Compact strings")
struct CompactStringTests {
  /// ASCII, every kind of continuation byte, the lead bytes at the edges of each length, and
  /// the bytes UTF-8 never uses.
  static let edges: [UInt8] = [
    0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED,
    0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
  ]

  /// A string as the writer stores it in full: its length, doubled, then its bytes.
  static func stored(_ bytes: [UInt8]) -> [UInt8] {
    [UInt8(bytes.count << 1)] + bytes
  }

  static func read(_ bytes: [UInt8]) -> String? {
    var reader = CompactReader(stored(bytes))
    return try? reader.string()
  }

  @Test(
    "every byte string of up to four edge bytes: accepted exactly when the standard library accepts it"
  )
  func agreesWithTheStandardLibrary() {
    var strings: [[UInt8]] = [[]]
    var disagreements: [[UInt8]] = []
    var accepted = 0
    for _ in 1...4 {
      strings = strings.flatMap { prefix in Self.edges.map { prefix + [$0] } }
      for bytes in strings {
        let expected = String(validating: bytes, as: UTF8.self)
        let read = Self.read(bytes)
        if read != expected || read.map({ Array($0.utf8) != bytes }) == true {
          disagreements.append(bytes)
        }
        if expected != nil { accepted += 1 }
      }
    }
    let first = Array(disagreements.prefix(5))
    #expect(disagreements.count == 0, "first: \(first)")
    // Both answers occur: the check is not vacuous.
    #expect(accepted > 1_000)
  }

  @Test(
    "ill-formed strings the same length as their repair are refused",
    arguments: [
      [0xF0, 0x9F, 0x98] as [UInt8],  // a four-byte sequence cut after three: one U+FFFD
      [0xE2, 0x82, 0x41],  // a three-byte sequence cut after two, then ASCII
      [0xED, 0xA0, 0x80],  // a UTF-16 surrogate
    ])
  func sameLengthRepairs(bytes: [UInt8]) {
    #expect(Self.read(bytes) == nil)
  }

  @Test("a string read in full and then by number reads back the same")
  func numberedStrings() throws {
    var writer = CompactWriter()
    writer.string("café ☕️")
    writer.string("café ☕️")
    var reader = CompactReader(writer.bytes)
    #expect(try reader.string() == "café ☕️")
    #expect(try reader.string() == "café ☕️")
    #expect(reader.isAtEnd)
  }
}
