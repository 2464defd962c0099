#if canImport(Glibc)
  import Glibc
#endif

/// Lines from a file descriptor it owns, read in blocks. Not copyable: one owner closes the
/// descriptor, once.
struct LineReader: ~Copyable {
  private var descriptor: Int32
  private var buffer: [UInt8] = []
  private var isAtEnd = false

  init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// The next line without its newline, or `nil` at the end.
  mutating func nextLine() -> String? {
    while true {
      if let newline = buffer.firstIndex(of: 0x0A) {
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeSubrange(...newline)
        return line
      }
      if isAtEnd || descriptor < 0 {
        guard !buffer.isEmpty else { return nil }
        defer { buffer.removeAll() }
        return String(decoding: buffer, as: UTF8.self)
      }
      var block = [UInt8](repeating: 0, count: 4096)
      let count = block.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 {
        isAtEnd = true
      } else {
        buffer += block[..<count]
      }
    }
  }

  /// Closes the descriptor; later reads return what is buffered, then `nil`.
  mutating func close() {
    guard descriptor >= 0 else { return }
    _ = Glibc.close(descriptor)
    descriptor = -1
  }
}
