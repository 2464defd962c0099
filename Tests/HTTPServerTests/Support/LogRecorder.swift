import Dispatch
import HTTPServer
import Synchronization

/// Collects request log entries and lets a test wait for them.
final class LogRecorder: Sendable {
  private let entries = Mutex<[HTTPRequestLogEntry]>([])
  private let recorded = DispatchSemaphore(value: 0)

  /// The callback to put in `HTTPServerConfiguration.requestLog`.
  var callback: @Sendable (HTTPRequestLogEntry) -> Void {
    { entry in
      self.entries.withLock { $0.append(entry) }
      self.recorded.signal()
    }
  }

  /// Waits until `count` more entries have been recorded (ten-second safety timeout).
  func waitForEntries(_ count: Int = 1) -> Bool {
    (0..<count).allSatisfy { _ in recorded.wait(timeout: .now() + 10) == .success }
  }

  var all: [HTTPRequestLogEntry] { entries.withLock { $0 } }
}
