// libFuzzer harness for the splitting of the team's CSV files (Sources/MigrationPipeline):
// `LineSplitter`, which cuts the current entitlement table into lines as `compare` reads it in
// blocks, and `CSVFields`, which splits a line into unquoted, trimmed fields (RFC 4180) for the
// entitlement table and the token mapping, and trims lines and fields.
//
// The input is a file as a team hands it over. It is cut into lines in one block, in blocks of
// sizes taken from the input itself, and in blocks that end after every CR; all three readings
// must give the lines a byte-by-byte split gives. Every line is then split into fields, which
// must be what a split over Unicode scalars gives, have no white space at either end, and read
// back the same once written out with RFC 4180 quoting. Trimming must be Foundation's. The
// byte-level code replaced exactly these straightforward versions, `CSVReference` in
// Tests/CSVReference (compiled into this harness by Scripts/fuzz; `CSVLineSplittingTests` uses
// it too). Crashes, hangs and broken invariants (`invariant`) are findings.

import Foundation

@testable import MigrationPipeline

/// Called by libFuzzer once per input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let lines = checkLines(bytes)
  for line in lines {
    checkFields(Substring(line))
    checkTrimming(Substring(line))
    // As `CurrentEntitlementsReader` reads a row: the line trimmed, then split.
    let row = CSVFields.trimmed(Substring(line), newlines: true)
    if !row.isEmpty, row.utf8.count != line.utf8.count { checkFields(row) }
  }
  // The whole input as one text: line breaks inside fields, and slices of a larger string, as
  // `AccountTokenFileReader` passes its lines.
  let text = String(decoding: bytes, as: UTF8.self)
  checkFields(Substring(text))
  checkTrimming(Substring(text))
  for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
    let copy = Substring(String(line))
    invariant(
      same(CSVFields.split(line), CSVFields.split(copy)),
      "the fields of \(line.debugDescription) depend on the string it is a slice of")
    for newlines in [false, true] {
      invariant(
        same(
          CSVFields.trimmed(line, newlines: newlines), CSVFields.trimmed(copy, newlines: newlines)),
        "\(line.debugDescription) trims differently as a slice (newlines: \(newlines))")
    }
  }
  return 0
}

// MARK: - Lines

/// Splits `bytes` into lines in three ways, checks they agree with the byte-by-byte split, and
/// returns the lines.
func checkLines(_ bytes: [UInt8]) -> [String] {
  let expected = CSVReference.lines(bytes)
  let data = Data(bytes)
  let whole = splitLines(data, blockEnds: [data.count])
  invariant(same(whole, expected), "in one block: \(whole); byte by byte: \(expected)")

  // Block sizes from 0 (an empty read) up, chosen by a generator seeded with the input, so that
  // a run repeats and the fuzzer explores the cuts along with the bytes.
  var random = SplitMix(seed: fnv1a(bytes))
  var ends: [Int] = []
  var end = 0
  while end < data.count {
    let size = random.next(below: 8) == 0 ? random.next(below: 64) : random.next(below: 5)
    end = min(data.count, end + size)
    ends.append(end)
  }
  let blocks = splitLines(data, blockEnds: ends)
  invariant(same(blocks, expected), "in blocks ending at \(ends): \(blocks); whole: \(expected)")

  // A CR at the end of a block must wait for the next block's first byte: cut after each one.
  let afterCR = bytes.indices.filter { bytes[$0] == 0x0D }.map { $0 + 1 } + [data.count]
  let cut = splitLines(data, blockEnds: afterCR)
  invariant(same(cut, expected), "in blocks ending after each CR: \(cut); whole: \(expected)")

  for line in expected {
    invariant(
      !line.utf8.contains(0x0A) && !line.utf8.contains(0x0D),
      "the line \(line.debugDescription) contains a line break")
  }
  return expected
}

/// Feeds `data` to a `LineSplitter` in blocks ending at `blockEnds` (slices of `data`, so their
/// indices do not start at zero), then finishes it.
func splitLines(_ data: Data, blockEnds: [Int]) -> [String] {
  var splitter = LineSplitter()
  var lines: [String] = []
  var start = data.startIndex
  for end in blockEnds {
    lines += splitter.feed(data[start..<(data.startIndex + end)])
    start = data.startIndex + end
  }
  if let last = splitter.finish() { lines.append(last) }
  return lines
}

// MARK: - Fields

/// Splits `line` into fields and checks them.
func checkFields(_ line: Substring) {
  let fields = CSVFields.split(line)
  let expected = CSVReference.fields(line)
  invariant(
    same(fields, expected), "\(line.debugDescription) splits into \(fields), not \(expected)")
  invariant(
    CSVFields.hasUnclosedQuote(line) == CSVReference.endsInsideQuotes(line),
    "\(line.debugDescription): the quote count and the split disagree on an unclosed quote")
  for field in fields {
    // Trimmed "of white space (as `.whitespaces` defines it)": space, tab and Unicode's Zs.
    invariant(
      (field.unicodeScalars.first.map { !CharacterSet.whitespaces.contains($0) } ?? true)
        && (field.unicodeScalars.last.map { !CharacterSet.whitespaces.contains($0) } ?? true),
      "the field \(field.debugDescription) of \(line.debugDescription) is not trimmed")
  }
  // Written out as RFC 4180 writes fields, every one quoted or only those that must be, the
  // fields read back the same.
  let quoted = fields.map(quote).joined(separator: ",")
  let again = CSVFields.split(Substring(quoted))
  invariant(same(again, fields), "\(fields) written as \(quoted.debugDescription) read as \(again)")
  let minimal = fields.map { field in
    field.utf8.contains { $0 == 0x22 || $0 == 0x2C || $0 == 0x0A || $0 == 0x0D }
      ? quote(field) : field
  }.joined(separator: ",")
  let minimalAgain = CSVFields.split(Substring(minimal))
  invariant(
    same(minimalAgain, fields),
    "\(fields) written as \(minimal.debugDescription) read as \(minimalAgain)")
}

/// A field in quotes, its quotes doubled (RFC 4180).
///
/// Over bytes, not `Character`s: a quote followed by a combining mark is one `Character`, which
/// `replacingOccurrences(of:with:)` would not see as a quote.
func quote(_ field: String) -> String {
  var bytes: [UInt8] = [0x22]
  for byte in field.utf8 {
    bytes.append(byte)
    if byte == 0x22 { bytes.append(0x22) }
  }
  bytes.append(0x22)
  return String(decoding: bytes, as: UTF8.self)
}

// MARK: - Trimming

/// `CSVFields.trimmed` trims `text` exactly as Foundation does, with and without line breaks
/// counted as white space. (Fields are trimmed without; `CSVReference.fields` checks those.)
func checkTrimming(_ text: Substring) {
  for newlines in [false, true] {
    let set: CharacterSet = newlines ? .whitespacesAndNewlines : .whitespaces
    let trimmed = String(CSVFields.trimmed(text, newlines: newlines))
    let expected = text.trimmingCharacters(in: set)
    invariant(
      same(trimmed, expected),
      "\(text.debugDescription) trimmed (newlines: \(newlines)) is \(trimmed.debugDescription), "
        + "Foundation says \(expected.debugDescription)")
  }
}

// MARK: - Comparing

/// Whether two texts are the same UTF-8 bytes: `==` on strings compares canonical equivalence,
/// which would let a split or a trim that changes `é` into `e` and U+0301 pass.
func same(_ a: some StringProtocol, _ b: some StringProtocol) -> Bool {
  a.utf8.elementsEqual(b.utf8)
}

/// Whether two lists of texts are the same UTF-8 bytes, one by one.
func same(_ a: [String], _ b: [String]) -> Bool {
  a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
}

// MARK: - Determinism

/// FNV-1a over the input: the seed of the block sizes.
func fnv1a(_ bytes: [UInt8]) -> UInt64 {
  var hash: UInt64 = 0xCBF2_9CE4_8422_2325
  for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
  return hash
}
