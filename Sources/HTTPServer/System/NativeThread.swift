import Glibc

/// Joinable POSIX threads.
///
/// The server uses pthreads rather than Foundation's `Thread` because `stop()` must join every
/// thread it started, and only pthreads can be joined.
enum NativeThread {
  /// Carries the body across `pthread_create`, which takes one untyped pointer.
  private final class Start {
    let body: () -> Void

    init(_ body: @escaping () -> Void) {
      self.body = body
    }
  }

  /// Starts a joinable thread running `body`.
  ///
  /// - Parameter body: The work; `sending`, so whatever it captures belongs to the new thread.
  /// - Returns: The thread, to pass to `join(_:)` exactly once.
  /// - Throws: `HTTPServerError.Kind.threadFailure` when the system refuses a new thread.
  static func spawn(_ body: sending @escaping () -> Void) throws(HTTPServerError) -> pthread_t {
    var thread = pthread_t()
    let start = Unmanaged.passRetained(Start(body)).toOpaque()
    let result = pthread_create(
      &thread, nil,
      { argument in
        guard let argument else { return nil }
        Unmanaged<Start>.fromOpaque(argument).takeRetainedValue().body()
        return nil
      }, start)
    guard result == 0 else {
      Unmanaged<Start>.fromOpaque(start).release()
      throw .system(
        .threadFailure, "cannot start an HTTP server thread", errorNumber: result,
        nextStep: "lower maximumConnections or raise the process's thread limit (ulimit -u)")
    }
    return thread
  }

  /// Waits for a thread started by `spawn(_:)` to end and releases its resources.
  static func join(_ thread: pthread_t) {
    // pthread_join fails only for a thread that is not joinable or is the caller, which the
    // server never passes; there is nothing to report.
    _ = pthread_join(thread, nil)
  }
}
