import Testing

@testable import HTTPServer

@Suite("Chunked body decoding")
struct ChunkedBodyDecoderTests {
  private struct Result {
    var body: [UInt8]
    var finished: Bool
    var leftover: [UInt8]
  }

  /// Feeds `wire` to a decoder in pieces of `pieceSize` bytes, keeping unconsumed bytes for the
  /// next call the way a connection's buffer does.
  private func decode(
    _ wire: String, pieceSize: Int = .max, maximumBody: Int = 1000, maximumTrailer: Int = 100
  ) throws(RequestRejection) -> Result {
    var decoder = ChunkedBodyDecoder(
      maximumBodyBytes: maximumBody, maximumTrailerBytes: maximumTrailer)
    var body: [UInt8] = []
    var pending: [UInt8] = []
    var remaining = ArraySlice(wire.utf8)
    while !remaining.isEmpty && !decoder.isFinished {
      let piece = remaining.prefix(pieceSize)
      remaining = remaining.dropFirst(piece.count)
      pending += piece
      let consumed = try pending.withUnsafeBufferPointer { buffer throws(RequestRejection) in
        try decoder.decode(buffer, into: &body)
      }
      pending.removeFirst(consumed)
    }
    return Result(body: body, finished: decoder.isFinished, leftover: pending + remaining)
  }

  private func rejection(_ wire: String, maximumBody: Int = 1000) -> RequestRejection? {
    do {
      _ = try decode(wire, maximumBody: maximumBody)
      return nil
    } catch {
      return error
    }
  }

  static let wire =
    "5\r\nhello\r\n" + "1;name=value\r\n,\r\n" + "6 ; ext\r\n world\r\n"
    + "0\r\nTrailer-One: 1\r\nTrailer-Two: 2\r\n\r\n"

  @Test("Decodes however the bytes are split", arguments: [1, 2, 3, 5, 7, 16, Int.max])
  func decodesInAnyPieces(pieceSize: Int) throws {
    let result = try decode(Self.wire + "GET / HTTP/1.1", pieceSize: pieceSize)
    #expect(String(decoding: result.body, as: UTF8.self) == "hello, world")
    #expect(result.finished)
    // The next pipelined request is left alone.
    #expect(String(decoding: result.leftover, as: UTF8.self) == "GET / HTTP/1.1")
  }

  @Test func decodesAnEmptyBody() throws {
    let result = try decode("0\r\n\r\n")
    #expect(result.body.isEmpty)
    #expect(result.finished)
  }

  @Test func acceptsUpperCaseHexAndLeadingZeros() throws {
    let body = String(repeating: "x", count: 26)
    let result = try decode("0001A\r\n\(body)\r\n0\r\n\r\n")
    #expect(result.body.count == 26)
  }

  @Test func waitsForTheRestOfAnIncompleteBody() throws {
    let result = try decode("5\r\nhel")
    #expect(!result.finished)
    #expect(String(decoding: result.body, as: UTF8.self) == "hel")
  }

  @Test(
    "Malformed chunked bodies are answered 400",
    arguments: [
      "x\r\nhello\r\n0\r\n\r\n",
      "\r\n",
      "5\r\nhelloX\r\n0\r\n\r\n",
      "5\nhello\r\n0\r\n\r\n",
      "5 junk\r\nhello\r\n0\r\n\r\n",
      "0\r\nBad Trailer: x\r\n\r\n",
      "0\r\nTrailer: x\n\r\n",
      String(repeating: "0", count: 1100) + "\r\n",
    ])
  func refusesMalformedBodies(wire: String) {
    #expect(rejection(wire)?.status == .badRequest)
  }

  @Test(
    "Bodies over the limit are answered 413",
    arguments: ["B\r\n", "6\r\nhello \r\n5\r\n", "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF\r\n"])
  func refusesBodiesOverTheLimit(wire: String) {
    #expect(rejection(wire, maximumBody: 10)?.status == .contentTooLarge)
  }

  @Test func acceptsABodyOfExactlyTheLimit() throws {
    #expect(try decode("A\r\n0123456789\r\n0\r\n\r\n", maximumBody: 10).body.count == 10)
  }

  @Test("Trailers over the limit are answered 431", arguments: [7, Int.max])
  func refusesTrailersOverTheLimit(pieceSize: Int) {
    let trailer = "X-Long: " + String(repeating: "t", count: 200)
    do {
      _ = try decode("0\r\n\(trailer)\r\n\r\n", pieceSize: pieceSize)
      Issue.record("a 208-byte trailer passed a 100-byte limit")
    } catch {
      #expect(error.status == .requestHeaderFieldsTooLarge)
    }
  }

  /// Found by `Scripts/fuzz http-request` (Fuzz/Regressions/http-request): a line over the limit
  /// that ends in a bare LF was refused for its LF when it arrived whole and for its length when
  /// it arrived in pieces — for a trailer, 400 or 431 depending on how the network split it.
  @Test(
    "An over-long line ending in a bare LF is refused for its length however it is split",
    arguments: [1, 7, 100, Int.max])
  func refusesOverLongBareLineForItsLength(pieceSize: Int) {
    let sizeLine = "5;" + String(repeating: "a", count: 1030) + "\n"
    do {
      _ = try decode(sizeLine, pieceSize: pieceSize)
      Issue.record("an over-long size line was accepted")
    } catch {
      #expect(error == .malformed("a chunk size line is longer than 1024 bytes"))
    }
    let trailer = "0\r\nX-Long: " + String(repeating: "t", count: 200) + "\n"
    do {
      _ = try decode(trailer, pieceSize: pieceSize)
      Issue.record("an over-long trailer was accepted")
    } catch {
      #expect(error.status == .requestHeaderFieldsTooLarge)
    }
  }
}
