import AppStoreServerAPI
import Chronology
import CryptoSupport
import Synchronization

/// The test notifications the simulated App Store was asked to send, per environment: each has
/// a token, a UUID and the instant it was sent (the world's clock), is delivered at once to a
/// configured URL, and — for a version 2 URL — appears in the notification history.
final class TestNotifications: Sendable {
  /// One test notification.
  struct Test: Hashable, Sendable {
    var token: String
    var uuid: String
    var date: Timestamp
    var environment: SimulatedEnvironment
  }

  private let seed: UInt64
  private let tests = Mutex<[Test]>([])

  init(seed: UInt64) {
    self.seed = seed
  }

  /// Records a new test notification sent at `date`.
  ///
  /// - Returns: the test, with its token (`<UUID>_<epoch ms>`, the shape Apple's tokens have).
  func send(in environment: SimulatedEnvironment, at date: Timestamp) -> Test {
    tests.withLock { tests in
      let hex = Array(
        SHA256.hexDigest("\(seed)/test/\(environment.rawValue)/\(tests.count)".utf8).prefix(32))
      let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }
      let uuid = groups.joined(separator: "-")
      let test = Test(
        token: "\(uuid)_\(date.millisecondsSince1970)", uuid: uuid, date: date,
        environment: environment)
      tests.append(test)
      return test
    }
  }

  /// The test with this token in this environment, if one was sent.
  func test(token: String, in environment: SimulatedEnvironment) -> Test? {
    tests.withLock { $0.first { $0.token == token && $0.environment == environment } }
  }

  /// Every test sent in `environment` by `now`, oldest first.
  func sent(in environment: SimulatedEnvironment, by now: Timestamp) -> [Test] {
    tests.withLock { $0.filter { $0.environment == environment && $0.date <= now } }
  }
}
