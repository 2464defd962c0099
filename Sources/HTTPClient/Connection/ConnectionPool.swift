import Synchronization

/// Idle keep-alive connections per origin, most recently used first.
///
/// The most recent connection is the one least likely to have been closed by the server for
/// idleness, and reusing few connections lets the others time out instead of all staying warm.
final class ConnectionPool: Sendable {
  private let idle = Mutex<[Origin: [Connection]]>([:])
  private let maximumPerOrigin: Int
  private let lifetime: Duration

  init(maximumPerOrigin: Int, lifetime: Duration) {
    self.maximumPerOrigin = maximumPerOrigin
    self.lifetime = lifetime
  }

  /// An idle connection to `origin` that still looks usable, or `nil`. Connections idle for
  /// longer than the lifetime, or with input pending (the server's close, most often), are
  /// closed on the way.
  func checkout(_ origin: Origin) -> Connection? {
    while let connection = idle.withLock({ $0[origin]?.popLast() }) {
      if connection.idleSince.duration(to: .now) < lifetime && !connection.hasPendingInput {
        return connection
      }
      // Dropping the last reference closes it.
    }
    return nil
  }

  /// Keeps `connection` for the next request to its origin, or closes it when enough are kept.
  func checkin(_ connection: Connection) {
    connection.idleSince = .now
    let surplus = idle.withLock { idle -> Connection? in
      guard idle[connection.origin, default: []].count < maximumPerOrigin else {
        return connection
      }
      idle[connection.origin, default: []].append(connection)
      return nil
    }
    _ = surplus  // closed here, outside the lock, when its last reference goes
  }

  /// Closes every idle connection.
  func closeAll() {
    let all = idle.withLock { idle in
      defer { idle = [:] }
      return idle.values.flatMap { $0 }
    }
    _ = all
  }
}
