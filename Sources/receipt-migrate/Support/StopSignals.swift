import Dispatch
import Foundation
import MigrationPipeline
import Synchronization

/// Turns SIGINT, SIGTERM and SIGHUP into a clean stop.
///
/// Without this the default action kills the process mid-write with no word. Here the first
/// signal makes a ``StopRequest``: every request in flight finishes and is stored, and the
/// stages stop at their next checkpoint (between requests, pages, batches and chunks, each one
/// SQLite transaction). The command then exits with `128 + signal` (130, 143, 129, as shells
/// report a killed process) and says how to resume. A second signal of any of the three ends
/// the process at once, for an operator who will not wait.
///
/// How long the first one takes is bounded whatever the run waits on: the App Store client
/// looks at the request between 100 ms slices of every wait (a back-off, a `Retry-After`, its
/// turn at the rate limit) and sends nothing new, so the run ends within about 100 ms plus the
/// requests already in flight, which their 30 s timeout bounds.
enum StopSignals {
  /// The signals handled, with the names messages use.
  static let handled: [(number: Int32, name: String)] = [
    (SIGINT, "SIGINT"), (SIGTERM, "SIGTERM"), (SIGHUP, "SIGHUP"),
  ]

  /// Runs `body` under a stop request that the first stop signal makes.
  ///
  /// - Throws: ``ToolFailure/stopped(signal:message:)`` when a signal stopped the work (whatever
  ///   `body` threw on its way out), otherwise what `body` throws.
  static func run<T>(_ body: () async throws -> T) async throws -> T {
    let stop = StopRequest()
    let received = Mutex<Int32?>(nil)
    let sources = handled.map { signal in
      // The default action must be off before the dispatch source can see the signal.
      Foundation.signal(signal.number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signal.number, queue: .global())
      source.setEventHandler {
        let first = received.withLock { value -> Bool in
          guard value == nil else { return false }
          value = signal.number
          return true
        }
        guard first else { exit(128 + signal.number) }
        FileHandle.standardError.write(
          Data(
            ("\nreceipt-migrate: \(signal.name) received; stopping once the requests in flight "
              + "are stored (send it again to stop at once)\n").utf8))
        stop.request()
      }
      source.resume()
      return source
    }
    defer {
      for source in sources { source.cancel() }
      for signal in handled { Foundation.signal(signal.number, SIG_DFL) }
    }
    do {
      let value = try await StopRequest.$current.withValue(stop) { try await body() }
      if let signal = received.withLock({ $0 }) { throw stopped(signal) }
      return value
    } catch {
      if let signal = received.withLock({ $0 }) { throw stopped(signal) }
      throw error
    }
  }

  private static func stopped(_ signal: Int32) -> ToolFailure {
    let name = handled.first { $0.number == signal }?.name ?? "signal \(signal)"
    return .stopped(
      signal: signal, message: "stopped by \(name); run the same command again to resume")
  }
}
