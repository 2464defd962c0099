import AppStoreServerAPI
import CryptoSupport
import Synchronization

/// Signed values kept for the life of the server, so each transaction, renewal information and
/// app transaction is signed once (an ES256 signature costs about 30 µs, and a history page
/// holds 20 of them).
///
/// A key holds the value's id and the version of the server's last change to it, so a changed
/// value is never served from its old entry; the old entry is dropped when the new one is made.
/// The entries are spread over 16 locks so that 64 connection threads rarely wait for each
/// other.
final class SignedValueCache<Payload: SignedPayload>: Sendable {
  struct Key: Hashable, Sendable {
    var id: String
    var version: Int64
  }

  private final class Shard: Sendable {
    let entries = Mutex<[Key: Verified<Payload>]>([:])
  }

  private static var shardCount: Int { 16 }
  private let shards: [Shard] = (0..<SignedValueCache.shardCount).map { _ in Shard() }

  /// The signed value for `key`, if it has been made.
  func cached(_ key: Key) -> Verified<Payload>? {
    shard(for: key).entries.withLock { $0[key] }
  }

  private func shard(for key: Key) -> Shard {
    shards[Int(UInt(bitPattern: key.id.hashValue) % UInt(Self.shardCount))]
  }

  /// The signed value for `key`, made by `make` the first time.
  func value(
    for key: Key, make: () throws(CryptoError) -> Verified<Payload>
  ) throws(CryptoError) -> Verified<Payload> {
    let shard = shard(for: key)
    if let cached = shard.entries.withLock({ $0[key] }) { return cached }
    // Signing happens outside the lock; two threads may sign the same value at once, and the
    // second result simply replaces the first (both are valid signatures of the same payload).
    let made = try make()
    shard.entries.withLock { entries in
      entries[key] = made
      if key.version > 0 { entries[Key(id: key.id, version: key.version - 1)] = nil }
    }
    return made
  }

  /// How many values are cached.
  var count: Int { shards.reduce(0) { $0 + $1.entries.withLock { $0.count } } }
}
