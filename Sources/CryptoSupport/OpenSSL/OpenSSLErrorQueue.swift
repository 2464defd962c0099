import COpenSSL

/// Access to OpenSSL's per-thread error queue.
///
/// OpenSSL records failures in a thread-local queue. Every failure path drains it, so that stale
/// entries from one operation never appear in the error of another.
enum OpenSSLErrorQueue {
  /// Removes and returns every queued error as OpenSSL's one-line text, oldest first.
  static func drain() -> [String] {
    var messages: [String] = []
    var buffer = [CChar](repeating: 0, count: 256)
    while true {
      let code = ERR_get_error()
      if code == 0 { break }
      ERR_error_string_n(code, &buffer, buffer.count)
      // `ERR_error_string_n` always NUL-terminates within the given size.
      let text = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
      messages.append(String(decoding: text, as: UTF8.self))
      // A runaway queue is not worth more than a screenful in an error message.
      if messages.count == 16 {
        ERR_clear_error()
        break
      }
    }
    return messages
  }

  /// Discards every queued error (after an expected failure such as a signature mismatch).
  static func clear() {
    ERR_clear_error()
  }
}
