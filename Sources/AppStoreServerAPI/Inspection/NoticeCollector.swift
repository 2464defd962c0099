import Synchronization

/// Collects notices (such as the non-Apple-root warning) to put them in a report instead of on
/// standard error.
final class NoticeCollector: Sendable {
  private let collected = Mutex<[String]>([])

  @Sendable func add(_ message: String) {
    collected.withLock { $0.append(message) }
  }

  var messages: [String] { collected.withLock { $0 } }
}
