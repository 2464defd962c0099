import AppStoreServerAPI
import CryptoSupport
import Synchronization

/// Signed values kept so that each transaction, renewal information and app transaction is
/// usually signed once (an ES256 signature costs about 20 µs, and a history page holds 20 of
/// them) — but never more than a bounded number of them.
///
/// A key holds the value's id and the version of the server's last change to it, so a changed
/// value is never served from its old entry; the old entry is dropped when the new one is made.
///
/// The bound is what lets one server hold a large world: a signed value with its certificate
/// chain is about 6 KB, so keeping every value ever served cost ~78 KB per account (7.8 GB for
/// 100,000). When a shard is full its oldest entry goes first: a backfill reads each value
/// once or twice in quick succession, so first-in-first-out keeps what is about to be asked
/// again. An evicted value is signed afresh when asked for again, with a new signature over the
/// same payload — as Apple signs every answer anew.
///
/// The entries are spread over 16 locks so that 64 connection threads rarely wait for each
/// other.
package final class SignedValueCache<Payload: SignedPayload>: Sendable {
  /// A value's id and the version of its last change.
  package struct Key: Hashable, Sendable {
    package var id: String
    package var version: Int64

    /// Creates a key.
    package init(id: String, version: Int64) {
      self.id = id
      self.version = version
    }
  }

  /// One lock's entries, with their insertion order for eviction.
  private struct ShardState {
    var entries: [Key: Verified<Payload>] = [:]
    /// Keys in insertion order from `head` on; keys removed since may still appear.
    var order: [Key] = []
    var head = 0

    mutating func insert(_ value: Verified<Payload>, for key: Key, capacity: Int) {
      if entries.updateValue(value, forKey: key) == nil { order.append(key) }
      while entries.count > capacity, head < order.count {
        entries[order[head]] = nil
        head += 1
      }
      // Drop the consumed prefix now and then, so the order array stays near the capacity.
      if head > 1_024, head * 2 > order.count {
        order.removeFirst(head)
        head = 0
      }
    }
  }

  private final class Shard: Sendable {
    let state = Mutex(ShardState())
  }

  private static var shardCount: Int { 16 }
  private let shards: [Shard] = (0..<SignedValueCache.shardCount).map { _ in Shard() }
  private let shardCapacity: Int

  /// The most values kept when no bound is given (see
  /// ``SimulatorConfiguration/signedValueCacheLimit``).
  package static var defaultLimit: Int { 16_384 }

  /// Creates an empty cache.
  ///
  /// - Parameter limit: the most values kept (at least one per shard).
  package init(limit: Int = SignedValueCache.defaultLimit) {
    shardCapacity = max(1, limit / Self.shardCount)
  }

  /// The signed value for `key`, if it is held.
  package func cached(_ key: Key) -> Verified<Payload>? {
    shard(for: key).state.withLock { $0.entries[key] }
  }

  private func shard(for key: Key) -> Shard {
    shards[Int(UInt(bitPattern: key.id.hashValue) % UInt(Self.shardCount))]
  }

  /// The signed value for `key`, made by `make` when it is not held.
  package func value(
    for key: Key, make: () throws(CryptoError) -> Verified<Payload>
  ) throws(CryptoError) -> Verified<Payload> {
    let shard = shard(for: key)
    if let cached = shard.state.withLock({ $0.entries[key] }) { return cached }
    // Signing happens outside the lock; two threads may sign the same value at once, and the
    // second result simply replaces the first (both are valid signatures of the same payload).
    let made = try make()
    let capacity = shardCapacity
    shard.state.withLock { state in
      if key.version > 0 { state.entries[Key(id: key.id, version: key.version - 1)] = nil }
      state.insert(made, for: key, capacity: capacity)
    }
    return made
  }

  /// How many values are held.
  package var count: Int { shards.reduce(0) { $0 + $1.state.withLock { $0.entries.count } } }
}
