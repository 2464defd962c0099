import Glibc

/// Writes text to standard error, unbuffered, so progress appears as soon as it is rendered.
public enum StandardError {
  /// Writes `text` completely, retrying interrupted and partial writes.
  ///
  /// - Parameter text: What to write; nothing is added.
  public static func write(_ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
      if written > 0 {
        bytes = bytes.dropFirst(written)
      } else if written < 0, errno == EINTR {
        continue
      } else {
        // Standard error is closed or full: there is nowhere left to report that.
        return
      }
    }
  }
}
