import Glibc

/// Bytes received on a connection and not yet consumed.
///
/// One buffer lives as long as its connection, so pipelined requests and partial reads carry
/// over from one request to the next. It grows only as far as the header limit needs (chunked
/// data is consumed as it arrives; `Content-Length` bodies bypass it) and shrinks back between
/// requests.
struct ReadBuffer {
  private static let initialCapacity = 8 * 1024
  private static let minimumReceiveSpace = 4 * 1024

  private var storage = [UInt8](repeating: 0, count: ReadBuffer.initialCapacity)
  private var start = 0
  private var end = 0

  var count: Int { end - start }
  var isEmpty: Bool { start == end }

  /// Receives whatever the socket has ready into the free space.
  ///
  /// - Returns: What `recv` returned: the number of bytes, 0 at the end of the stream, or -1 with
  ///   `errno` set.
  mutating func receive(from descriptor: Int32) -> Int {
    makeRoom(for: ReadBuffer.minimumReceiveSpace)
    let end = self.end
    let received = storage.withUnsafeMutableBytes { bytes in
      recv(descriptor, bytes.baseAddress.map { $0 + end }, bytes.count - end, 0)
    }
    if received > 0 { self.end += received }
    return received
  }

  /// Drops the first `length` readable bytes.
  mutating func consume(_ length: Int) {
    start += length
    if start == end {
      start = 0
      end = 0
    }
  }

  /// Calls `body` with the readable bytes.
  func withReadableBytes<Result, Failure>(
    _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let range = start..<end
    let outcome: Swift.Result<Result, Failure> = storage.withUnsafeBufferPointer { bytes in
      do throws(Failure) {
        return .success(try body(UnsafeBufferPointer(rebasing: bytes[range])))
      } catch {
        return .failure(error)
      }
    }
    return try outcome.get()
  }

  /// The offset from the first readable byte of the CR LF CR LF that ends a request head, looking
  /// no earlier than `offset`.
  func headTerminator(searchingFrom offset: Int) -> Int? {
    withReadableBytes { bytes in
      var index = offset
      while index + 3 < bytes.count {
        if bytes[index + 3] != ASCII.lineFeed {
          index += 1
        } else if bytes[index] == ASCII.carriageReturn, bytes[index + 1] == ASCII.lineFeed,
          bytes[index + 2] == ASCII.carriageReturn
        {
          return index
        } else {
          index += 1
        }
      }
      return nil
    }
  }

  /// Drops empty lines (CRLF) before a request line, which RFC 9112 §2.2 asks servers to ignore:
  /// some clients send an extra CRLF after a body.
  mutating func discardLeadingEmptyLines() {
    while count >= 2, storage[start] == ASCII.carriageReturn,
      storage[start + 1] == ASCII.lineFeed
    {
      consume(2)
    }
  }

  /// Moves up to `destination.count` readable bytes into `destination`.
  ///
  /// - Returns: How many bytes were moved.
  mutating func moveBytes(into destination: UnsafeMutableBufferPointer<UInt8>) -> Int {
    let length = min(count, destination.count)
    withReadableBytes { bytes in
      _ = destination.initialize(fromContentsOf: UnsafeBufferPointer(rebasing: bytes[..<length]))
    }
    consume(length)
    return length
  }

  /// Returns a buffer that grew for a large request head to its initial size, once it is empty.
  mutating func releaseExcessCapacity() {
    if isEmpty && storage.count > ReadBuffer.initialCapacity {
      storage = [UInt8](repeating: 0, count: ReadBuffer.initialCapacity)
    }
  }

  private mutating func makeRoom(for length: Int) {
    guard storage.count - end < length else { return }
    if start > 0 {
      let (start, end) = (self.start, self.end)
      storage.withUnsafeMutableBufferPointer { bytes in
        guard let base = bytes.baseAddress else { return }
        base.update(from: base + start, count: end - start)
      }
      self.end -= start
      self.start = 0
    }
    if storage.count - end < length {
      storage.append(contentsOf: repeatElement(0, count: max(storage.count, length)))
    }
  }
}
