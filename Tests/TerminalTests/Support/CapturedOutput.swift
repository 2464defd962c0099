import Synchronization

/// Collects what a progress meter writes, one entry per write.
final class CapturedOutput: Sendable {
  private let storage = Mutex<[String]>([])

  var writes: [String] {
    storage.withLock { $0 }
  }

  func write(_ text: String) {
    storage.withLock { $0.append(text) }
  }
}
