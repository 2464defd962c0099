import Glibc

/// A descriptor that `poll` can wait on and that any thread can make readable.
///
/// Built on a non-blocking socket pair rather than `eventfd` (which Glibc's Swift module does not
/// export), created with `SOCK_CLOEXEC` so a forked child never inherits it. Once fired it stays
/// readable until `reset()`; a signal that is never reset is a latch every waiter sees, however
/// late it starts waiting.
final class WakeSignal: Sendable {
  /// The end to poll for `POLLIN`.
  let descriptor: Int32
  private let writeEnd: Int32

  init() throws(HTTPServerError) {
    var pair: [Int32] = [-1, -1]
    let type = Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue)
    guard socketpair(AF_UNIX, type, 0, &pair) == 0 else {
      throw .system(
        .socketFailure, "cannot create the HTTP server's internal wake-up socket pair",
        errorNumber: errno, nextStep: "check the process's file descriptor limit (ulimit -n)")
    }
    descriptor = pair[0]
    writeEnd = pair[1]
  }

  /// Makes `descriptor` readable.
  func fire() {
    var byte: UInt8 = 1
    // Failure can only be EAGAIN, a full buffer, which already leaves `descriptor` readable.
    _ = send(writeEnd, &byte, 1, Int32(MSG_NOSIGNAL))
  }

  /// Consumes every pending firing, so `descriptor` is readable again only after the next one.
  func reset() {
    var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
    while withUnsafeMutableBytes(of: &buffer, { recv(descriptor, $0.baseAddress, $0.count, 0) }) > 0
    {}
  }

  /// Waits until the signal fires or `deadline` passes.
  ///
  /// - Returns: `true` when the signal fired.
  func wait(until deadline: ContinuousClock.Instant?) -> Bool {
    Poll.wait(for: descriptor, events: Int32(POLLIN), until: deadline) != .timedOut
  }

  /// Closes both descriptors; only once no thread can touch the signal any more.
  func close() {
    _ = Glibc.close(descriptor)
    _ = Glibc.close(writeEnd)
  }
}
