import JSON
import Testing

/// Runs `body` with a reader over `text`.
func read<T>(_ text: String, _ body: (inout JSONReader) throws(JSONError) -> T) throws(JSONError)
  -> T
{
  let bytes = Array(text.utf8)
  let result: Result<T, JSONError> = bytes.withUnsafeBytes { buffer in
    var reader = JSONReader(buffer)
    do throws(JSONError) {
      return .success(try body(&reader))
    } catch {
      return .failure(error)
    }
  }
  return try result.get()
}

func readError(_ text: String, _ body: (inout JSONReader) throws(JSONError) -> Void) -> JSONError? {
  do {
    try read(text, body)
    return nil
  } catch {
    return error
  }
}

@Suite("JSONReader")
struct JSONReaderTests {
  @Test("walks an object with keys matched as literals")
  func walksObject() throws {
    let result = try read(
      #"{"status": 0, "environment": "Sandbox", "skip": {"a": [1, 2, {"b": null}]}, "ok": true}"#
    ) {
      reader throws(JSONError) in
      var status: Int64?
      var environment: String?
      var ok: Bool?
      try reader.beginObject()
      while let key = try reader.nextKey() {
        switch key {
        case "status": status = try reader.readInt64()
        case "environment": environment = try reader.readString()
        case "ok": ok = try reader.readBool()
        default: try reader.skipValue()
        }
      }
      try reader.finish()
      return (status, environment, ok)
    }
    #expect(result.0 == 0)
    #expect(result.1 == "Sandbox")
    #expect(result.2 == true)
  }

  @Test("walks arrays, including empty ones and nested empties")
  func walksArrays() throws {
    let total = try read(#"[[], [1], [2, 3], {}, [[]]]"#) { reader throws(JSONError) in
      var elements = 0
      try reader.beginArray()
      while try reader.nextElement() {
        elements += 1
        try reader.skipValue()
      }
      try reader.finish()
      return elements
    }
    #expect(total == 5)
  }

  @Test(
    "reads exact 64-bit integers in every integral spelling",
    arguments: [
      ("0", Int64(0)), ("-0", 0), ("9223372036854775807", .max), ("-9223372036854775808", .min),
      ("1000000712345678", 1_000_000_712_345_678), ("1.0", 1), ("1.5e3", 1500), ("1e2", 100),
      ("100e-2", 1), ("12.500E1", 125), ("0.000e5", 0), ("1609459200000", 1_609_459_200_000),
      ("9007199254740993", 9_007_199_254_740_993),
    ])
  func readsIntegers(text: String, expected: Int64) throws {
    #expect(try read(text) { reader throws(JSONError) in try reader.readInt64() } == expected)
  }

  @Test(
    "refuses fractions and out-of-range integers",
    arguments: ["1.5", "9223372036854775808", "-9223372036854775809", "1e19", "0.15e1", "123e-2"])
  func refusesNonIntegers(text: String) {
    let error = readError(text) { reader throws(JSONError) in _ = try reader.readInt64() }
    #expect(error?.kind == .numberOutOfRange("a 64-bit integer"))
  }

  @Test(
    "lenient integers accept strings, numbers and booleans",
    arguments: [
      (#""42""#, Int64?.some(42)), ("42", 42), ("true", 1), ("false", 0), ("null", nil),
      (#""""#, nil),
      (#"" 7 ""#, 7), (#""007""#, 7), (#""1.0""#, 1), (#""-3""#, -3), (#""+3""#, 3),
      (#""1000000712345678""#, 1_000_000_712_345_678),
    ])
  func lenientIntegers(text: String, expected: Int64?) throws {
    #expect(
      try read(text) { reader throws(JSONError) in try reader.readLenientInt64() } == expected)
  }

  @Test("lenient integers refuse containers and words")
  func lenientIntegerErrors() {
    let word = readError(#""abc""#) { reader throws(JSONError) in _ = try reader.readLenientInt64()
    }
    #expect(word?.kind == .typeMismatch(expected: "a number or numeric string", found: .string))
    let object = readError(#"{"a": 1}"#) { reader throws(JSONError) in
      _ = try reader.readLenientInt64()
    }
    #expect(object?.kind == .typeMismatch(expected: "a number or numeric string", found: .object))
    #expect(object?.description == "expected a number or numeric string, found an object at byte 0")
  }

  @Test(
    "lenient booleans accept every spelling legacy data uses",
    arguments: [
      ("true", Bool?.some(true)), ("false", false), (#""true""#, true), (#""false""#, false),
      (#""1""#, true), (#""0""#, false), ("1", true), ("0", false), (#""TRUE""#, true),
      (#""yes""#, true), ("null", nil), (#""""#, nil),
    ])
  func lenientBooleans(text: String, expected: Bool?) throws {
    #expect(try read(text) { reader throws(JSONError) in try reader.readLenientBool() } == expected)
  }

  @Test("lenient strings turn scalars into text")
  func lenientStrings() throws {
    let values = try read(#"["a", 12.50, true, null, -1]"#) { reader throws(JSONError) in
      var values: [String?] = []
      try reader.beginArray()
      while try reader.nextElement() { values.append(try reader.readLenientString()) }
      return values
    }
    #expect(values == ["a", "12.50", "true", nil, "-1"])
  }

  @Test(
    "unescapes strings and keys",
    arguments: [
      (#""plain""#, "plain"), (#""a\"b""#, "a\"b"), (#""\\\/\b\f\n\r\t""#, "\\/\u{8}\u{c}\n\r\t"),
      (#""\u00e9\u4e2d""#, "é中"), (#""\ud83d\ude00""#, "😀"), ("\"é中😀\"", "é中😀"),
    ])
  func unescapes(text: String, expected: String) throws {
    #expect(try read(text) { reader throws(JSONError) in try reader.readString() } == expected)
    let keyed = try read("{\(text): 1}") { reader throws(JSONError) in
      try reader.beginObject()
      let key = try reader.nextKey()?.description
      try reader.skipValue()
      return key
    }
    #expect(keyed == expected)
  }

  @Test("matches keys that were written with escapes")
  func escapedKeysMatchLiterals() throws {
    let matched = try read(#"{"st\u0061tus": 1}"#) { reader throws(JSONError) in
      try reader.beginObject()
      let key = try reader.nextKey()
      return key.map { $0 == "status" } ?? false
    }
    #expect(matched)
  }

  @Test(
    "names each malformation precisely",
    arguments: [
      (#"{"a": 1"#, JSONError.Kind.unexpectedEnd),
      (#"{"a" 1}"#, .unexpectedByte(UInt8(ascii: "1"), expected: "':'")),
      (#"{"a": 1 "b": 2}"#, .unexpectedByte(UInt8(ascii: "\""), expected: "',' or '}'")),
      (#"{"a": 1,}"#, .unexpectedByte(UInt8(ascii: "}"), expected: "a value after ','")),
      (#"[1,]"#, .unexpectedByte(UInt8(ascii: "]"), expected: "a value after ','")),
      (#"[1 2]"#, .unexpectedByte(UInt8(ascii: "2"), expected: "',' or ']'")),
      (#"{"a": 1]"#, .unexpectedByte(UInt8(ascii: "]"), expected: "',' or '}'")),
      (#"{,"a": 1}"#, .unexpectedByte(UInt8(ascii: ","), expected: "a string key")),
      (#"["\x"]"#, .invalidEscape), (#"["\u12G4"]"#, .invalidEscape),
      (#"["\ud83d"]"#, .invalidEscape), (#"["\ude00x"]"#, .invalidEscape),
      (#"["\ud83d\u0041"]"#, .invalidEscape),
      ("[\"a\u{1}b\"]", .controlCharacterInString),
      ("[01]", .invalidNumber), ("[1.]", .invalidNumber), ("[-]", .invalidNumber),
      ("[1e]", .invalidNumber),
      ("[+1]", .unexpectedByte(UInt8(ascii: "+"), expected: "a JSON value")),
      ("[tru]", .unexpectedByte(UInt8(ascii: "]"), expected: "'true'")), ("[nul", .unexpectedEnd),
      ("[1] x", .trailingData), ("", .emptyDocument), ("   ", .emptyDocument),
      ("[\"abc", .unexpectedEnd),
      ("{'a': 1}", .unexpectedByte(UInt8(ascii: "'"), expected: "a string key")),
    ])
  func malformations(text: String, expected: JSONError.Kind) {
    let error = readError(text) { reader throws(JSONError) in
      try reader.skipValue()
      try reader.finish()
    }
    #expect(error?.kind == expected)
  }

  @Test("rejects invalid UTF-8 in strings, and reports truncation inside a sequence as truncation")
  func invalidUTF8() {
    let cases: [([UInt8], JSONError.Kind)] = [
      ([0x22, 0xC3, 0x28, 0x22], .invalidUTF8),  // bad continuation
      ([0x22, 0xC0, 0x80, 0x22], .invalidUTF8),  // overlong NUL
      ([0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8),  // encoded surrogate
      ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8),  // above U+10FFFF
      ([0x22, 0xFF, 0x22], .invalidUTF8),
      ([0x22, 0xE4, 0xB8], .unexpectedEnd),  // truncated but valid so far
      ([0x22, 0xE4, 0x41], .invalidUTF8),  // truncated and already wrong
    ]
    for (bytes, expected) in cases {
      let error: JSONError? = bytes.withUnsafeBytes { buffer in
        var reader = JSONReader(buffer)
        do throws(JSONError) {
          try reader.skipValue()
          return nil
        } catch {
          return error
        }
      }
      #expect(error?.kind == expected, "bytes \(bytes)")
    }
  }

  @Test("limits nesting depth instead of exhausting the stack")
  func nestingLimit() {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    let error = readError(deep) { reader throws(JSONError) in try reader.skipValue() }
    #expect(error?.kind == .nestingTooDeep(limit: 256))
    #expect(throws: Never.self) {
      try read(String(repeating: "[", count: 256) + String(repeating: "]", count: 256)) {
        reader throws(JSONError) in try reader.skipValue()
      }
    }
  }

  @Test("reports the byte range of skipped values")
  func skippedRange() throws {
    let range = try read(#"{"a":  [1, {"b": 2}] }"#) { reader throws(JSONError) in
      try reader.beginObject()
      _ = try reader.nextKey()
      return try reader.skipValue()
    }
    #expect(range == 7..<20)
  }

  @Test("type mismatches name what was found")
  func typeMismatch() {
    let error = readError(#"[1]"#) { reader throws(JSONError) in _ = try reader.readString() }
    #expect(error?.kind == .typeMismatch(expected: "a string", found: .array))
    let object = readError(#""x""#) { reader throws(JSONError) in try reader.beginObject() }
    #expect(object?.kind == .typeMismatch(expected: "an object", found: .string))
  }

  @Test("long strings cross the eight-byte fast path at every alignment")
  func longStrings() throws {
    for length in 0..<40 {
      for special in ["", "\\n", "é", "\\u0041"] {
        let body =
          String(repeating: "A", count: length) + special
          + String(repeating: "b", count: length % 9)
        let decoded = try read("\"\(body)\"") { reader throws(JSONError) in try reader.readString()
        }
        let expectedSpecial = ["": "", "\\n": "\n", "é": "é", "\\u0041": "A"][special] ?? ""
        #expect(
          decoded == String(repeating: "A", count: length) + expectedSpecial
            + String(repeating: "b", count: length % 9))
      }
    }
  }
}
