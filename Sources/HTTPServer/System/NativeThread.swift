import Glibc

/// Joinable POSIX threads.
///
/// The server uses pthreads rather than Foundation's `Thread` because `stop()` must join every
/// thread it started, and only pthreads can be joined.
enum NativeThread {
  /// Carries the name and body across `pthread_create`, which takes one untyped pointer.
  private final class Start {
    let name: String
    let body: () -> Void

    init(name: String, body: @escaping () -> Void) {
      self.name = name
      self.body = body
    }

    func run() {
      NativeThread.nameCurrentThread(name)
      body()
    }
  }

  /// Starts a joinable thread running `body`.
  ///
  /// - Parameters:
  ///   - name: The thread's name in `ps -T`, `top -H` and debuggers; at most 15 bytes.
  ///   - body: The work; `sending`, so whatever it captures belongs to the new thread.
  /// - Returns: The thread, to pass to `join(_:)` exactly once.
  /// - Throws: `HTTPServerError.Kind.threadFailure` when the system refuses a new thread.
  static func spawn(
    name: String, _ body: sending @escaping () -> Void
  ) throws(HTTPServerError) -> pthread_t {
    var thread = pthread_t()
    let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
    let result = pthread_create(
      &thread, nil,
      { argument in
        guard let argument else { return nil }
        Unmanaged<Start>.fromOpaque(argument).takeRetainedValue().run()
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

  /// Names the calling thread through procfs, as `pthread_setname_np` does, since Glibc's Swift
  /// module does not export that GNU extension.
  ///
  /// A name is a convenience for whoever inspects the process; without procfs the thread simply
  /// stays unnamed, so failures are not reported.
  private static func nameCurrentThread(_ name: String) {
    let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    _ = close(descriptor)
  }

  /// Waits for a thread started by `spawn(name:_:)` to end and releases its resources.
  static func join(_ thread: pthread_t) {
    // pthread_join fails only for a thread that is not joinable or is the caller, which the
    // server never passes; there is nothing to report.
    _ = pthread_join(thread, nil)
  }
}
