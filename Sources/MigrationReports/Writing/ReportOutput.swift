#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a renderer writes one report file: kept whole in memory, or written to an open file
/// in blocks as it grows, so that a file of tens of megabytes (the evidence of 20,000 accounts)
/// never sits in memory whole.
///
/// It does not own the file descriptor: whoever opened it flushes, closes and renames.
struct ReportOutput {
  /// Bytes written and not yet flushed; in memory, all of them.
  private(set) var bytes: [UInt8] = []
  /// The file, or `nil` to keep everything in memory.
  private let descriptor: Int32?
  /// The `errno` of the first failed write; later writes are dropped.
  private(set) var failure: Int32?

  /// How much is gathered before it is written out.
  static let blockSize = 1 << 20

  /// An output kept in memory, in ``bytes``.
  init() {
    descriptor = nil
  }

  /// An output written to `descriptor` in blocks; call ``flush()`` at the end.
  ///
  /// - Parameter descriptor: a file open for writing.
  init(descriptor: Int32) {
    self.descriptor = descriptor
    bytes.reserveCapacity(Self.blockSize + Self.blockSize / 4)
  }

  /// Appends text as UTF-8.
  mutating func write(_ text: String) {
    bytes.append(contentsOf: text.utf8)
    flushIfFull()
  }

  /// Appends bytes.
  mutating func write(_ more: [UInt8]) {
    bytes.append(contentsOf: more)
    flushIfFull()
  }

  /// Appends one byte.
  mutating func write(byte: UInt8) {
    bytes.append(byte)
    flushIfFull()
  }

  private mutating func flushIfFull() {
    if descriptor != nil && bytes.count >= Self.blockSize { flush() }
  }

  /// Writes out what is gathered (for a file; in memory it does nothing).
  mutating func flush() {
    guard let descriptor else { return }
    if failure == nil {
      var written = 0
      bytes.withUnsafeBytes { buffer in
        while written < buffer.count {
          let result = writeToFile(
            descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
          if result < 0 {
            if errno == EINTR { continue }
            failure = errno
            return
          }
          written += result
        }
      }
    }
    bytes.removeAll(keepingCapacity: true)
  }
}

/// `write(2)`, out of reach of ``ReportOutput``'s own `write` methods.
private func writeToFile(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}
