import Foundation
import TestDirectories
import Testing

@testable import LegacyReceipts

/// `LineReader` over every file of up to 7 bytes drawn from `a`, `\r` and `\n`, read through
/// buffers of 1 to 4 bytes so that every line break falls on every chunk boundary. Kind of
/// evidence: this project's code against a plain byte-by-byte splitter written here.
@Suite("LineReader")
struct LineReaderTests {
  /// Every byte string of up to `length` bytes over `alphabet`.
  static func strings(upTo length: Int, of alphabet: [UInt8]) -> [[UInt8]] {
    var all: [[UInt8]] = [[]]
    var last: [[UInt8]] = [[]]
    for _ in 0..<length {
      last = last.flatMap { prefix in alphabet.map { prefix + [$0] } }
      all += last
    }
    return all
  }

  /// The lines a reader should give, each with its terminator: `\n` and `\r\n` end a line, and
  /// a lone `\r` too when `carriageReturn`; a last line without a break counts unless empty;
  /// a `\r` that ends the file is dropped as a break cut short.
  static func expected(_ bytes: [UInt8], carriageReturn: Bool) -> [(
    bytes: [UInt8], terminator: [UInt8]
  )] {
    var lines: [(bytes: [UInt8], terminator: [UInt8])] = []
    var current: [UInt8] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if byte == 0x0D, index < bytes.count, bytes[index] == 0x0A {
        lines.append((current, [0x0D, 0x0A]))
        current = []
        index += 1
      } else if byte == 0x0A {
        lines.append((current, [0x0A]))
        current = []
      } else if byte == 0x0D, carriageReturn || index == bytes.count {
        lines.append((current, carriageReturn ? [0x0D] : []))
        current = []
      } else {
        current.append(byte)
      }
    }
    if !current.isEmpty { lines.append((current, [])) }
    return lines
  }

  @Test("lines and their terminators, at every chunk boundary, with and without lone CR")
  func everySmallFile() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let path = directory.appendingPathComponent("lines").path
    var checked = 0
    for bytes in Self.strings(upTo: 7, of: [0x61, 0x0D, 0x0A]) {
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      for carriageReturn in [false, true] {
        let expected = Self.expected(bytes, carriageReturn: carriageReturn)
        for chunkSize in 1...4 {
          let reader = try LineReader(
            path: path, chunkSize: chunkSize, maximumLineLength: 64,
            carriageReturnEndsLine: carriageReturn)
          var lines: [(bytes: [UInt8], terminator: [UInt8])] = []
          while let line = try reader.next() {
            #expect(!line.isTooLong)
            lines.append((Array(line.bytes), line.terminator.bytes))
          }
          let same =
            lines.count == expected.count
            && zip(lines, expected).allSatisfy {
              $0.bytes == $1.bytes && $0.terminator == $1.terminator
            }
          #expect(same, "\(bytes) chunk \(chunkSize) lone CR \(carriageReturn): \(lines)")
          #expect(reader.bytesConsumed == Int64(bytes.count))
          checked += 1
        }
      }
    }
    #expect(checked == 3_280 * 8)
  }

  @Test("an over-long line is skipped whole, whatever ends it, and the next one is read")
  func overlongLines() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let path = directory.appendingPathComponent("lines").path
    for terminator in ["\n", "\r\n", "\r"] {
      let text = String(repeating: "x", count: 40) + terminator + "ok" + terminator
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
      for chunkSize in [1, 3, 7, 41] {
        let reader = try LineReader(
          path: path, chunkSize: chunkSize, maximumLineLength: 8, carriageReturnEndsLine: true)
        let long = try #require(try reader.next())
        #expect(long.isTooLong && long.length == 40, "\(terminator.debugDescription) \(chunkSize)")
        let next = try #require(try reader.next())
        #expect(
          Array(next.bytes) == Array("ok".utf8), "\(terminator.debugDescription) \(chunkSize)")
        #expect(try reader.next() == nil)
      }
    }
  }
}
