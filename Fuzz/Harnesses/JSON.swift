// libFuzzer harness for the JSON reader (Sources/JSON), which every stored verifyReceipt
// response, JWS payload and configuration file passes through.
//
// Three readings of the same bytes must agree: the tree (`JSONValue`), a validating skip, and a
// walk that reads every scalar with each typed and lenient reader the decoders use. A document
// the tree accepts must also survive writing it out and reading it back. Errors are verdicts;
// crashes, hangs and broken invariants (`invariant`) are findings.

import JSON

/// Called by libFuzzer once per input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let buffer = UnsafeRawBufferPointer(start: data, count: size)
  let tree = Result { () throws(JSONError) in try JSONValue(parsing: buffer) }

  // The reader validates what it skips, so skipping accepts exactly the documents the tree does.
  var skipping = JSONReader(buffer)
  let skipped = Result { () throws(JSONError) in
    try skipping.skipValue()
    try skipping.finish()
  }
  invariant(
    (try? tree.get()) != nil ? (try? skipped.get()) != nil : (try? skipped.get()) == nil,
    "skipValue and JSONValue disagree: \(tree) vs \(skipped)")

  var walking = JSONReader(buffer)
  var budget = 10_000
  _ = try? walkValue(&walking, budget: &budget)

  if case .success(let value) = tree {
    for style in [JSONWriter.Style.compact, .pretty] {
      let text = value.serialized(style: style)
      let again = Result { () throws(JSONError) in try JSONValue(parsing: text.utf8) }
      invariant(
        (try? again.get()) == value, "\(value) written as \(text) reads back as \(again)")
    }
  }
  return 0
}

/// Walks one value as the decoders do, probing each scalar with every reader on a copy of the
/// reader before skipping it with the original.
func walkValue(_ reader: inout JSONReader, budget: inout Int) throws(JSONError) {
  budget -= 1
  guard budget > 0 else { return }
  switch try reader.peekKind() {
  case .object:
    try reader.beginObject()
    while let key = try reader.nextKey() {
      _ = key.description
      try walkValue(&reader, budget: &budget)
    }
  case .array:
    try reader.beginArray()
    while try reader.nextElement() { try walkValue(&reader, budget: &budget) }
  case .string, .number, .bool, .null:
    probeScalar(reader)
    try reader.skipValue()
  }
}

/// Every scalar reader on copies of `reader`; each may refuse the value.
func probeScalar(_ reader: JSONReader) {
  var copy = reader
  _ = try? copy.readLenientString()
  copy = reader
  _ = try? copy.readLenientBool()
  copy = reader
  _ = try? copy.readBool()
  copy = reader
  _ = try? copy.readNullIfPresent()
  copy = reader
  _ = try? copy.readString()
  copy = reader
  _ = try? copy.readDouble()
  copy = reader
  let lenient = try? copy.readLenientInt64()
  copy = reader
  let integer = Result { () throws(JSONError) in try copy.readInt64() }
  copy = reader
  guard let text = try? copy.readNumberText() else { return }
  // A plain decimal integer has one right answer, which Swift's own parser gives.
  let digits = text.utf8.drop { $0 == UInt8(ascii: "-") }
  if !digits.isEmpty, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
    invariant(
      (try? integer.get()) == Int64(text), "readInt64 of \(text) gave \(integer)")
    invariant(
      lenient == Int64(text), "readLenientInt64 of \(text) gave \(String(describing: lenient))")
  }
}
