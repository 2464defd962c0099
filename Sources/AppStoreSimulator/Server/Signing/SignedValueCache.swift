import AppStoreServerAPI
import CryptoSupport
import Synchronization

/// Signed values kept so that each transaction, renewal information and app transaction is
/// usually signed once (an ES256 signature costs about 20 µs, and a history page holds 20 of
/// them) — within a bounded number of values and a bounded number of bytes.
///
/// A key holds the value's id and the version of the server's last change to it, so a changed
/// value is never served from its old entry; the old entry is dropped when the new one is made.
///
/// The bounds are what let one server hold a large world and stay the same size however many
/// requests it answers. Every JWS of one signer starts with the same header segment — the
/// certificate chain, about 2.9 KB of a 4 KB transaction — so an entry keeps that header once
/// per shard and only the rest of its JWS (payload and signature) beside the payload, and the JWS
/// is put together again, byte for byte, when it is served. An entry then costs about 2 KB
/// instead of 6 KB. When a shard is over either bound its oldest entries go first: a backfill
/// reads each value once or twice in quick succession, so first-in-first-out keeps what is
/// about to be asked again. An evicted value is signed afresh when asked for again, with a new
/// signature over the same payload — as Apple signs every answer anew.
///
/// The entries are spread over 16 locks so that 64 connection threads rarely wait for each
/// other; each shard holds a sixteenth of each bound.
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

  /// A signed value as held: its JWS without the shard's shared header when it carries that
  /// header, whole otherwise.
  private struct Entry {
    var payload: Payload
    /// From the `.` after the header on (`.payload.signature`), or the whole JWS.
    var rest: String
    var sharesHeader: Bool

    /// What the entry counts against the byte bound: the JWS bytes it holds and the payload's
    /// inline size (the payload's own strings are small and not counted).
    var bytes: Int { rest.utf8.count + MemoryLayout<Payload>.size }
  }

  /// One lock's entries, with their insertion order for eviction.
  private struct ShardState {
    var entries: [Key: Entry] = [:]
    /// Keys in insertion order from `head` on; keys removed since may still appear.
    var order: [Key] = []
    var head = 0
    /// The bytes the entries count (``Entry/bytes``).
    var bytes = 0
    /// The header segment of the first value kept, shared by every entry that carries it.
    var header: String?

    func value(_ key: Key) -> Verified<Payload>? {
      guard let entry = entries[key] else { return nil }
      guard entry.sharesHeader, let header else {
        return Verified(payload: entry.payload, jws: entry.rest)
      }
      return Verified(payload: entry.payload, jws: header + entry.rest)
    }

    mutating func remove(_ key: Key) {
      if let removed = entries.removeValue(forKey: key) { bytes -= removed.bytes }
    }

    mutating func insert(_ value: Verified<Payload>, for key: Key, limits: Limits) {
      let entry = entry(for: value)
      if let replaced = entries.updateValue(entry, forKey: key) {
        // Another thread signed the same value at the same time; its key is already in order.
        bytes -= replaced.bytes
      } else {
        order.append(key)
      }
      bytes += entry.bytes
      while entries.count > limits.count || bytes > limits.bytes, head < order.count {
        remove(order[head])
        head += 1
      }
      // Drop the consumed prefix now and then, so the order array stays near the capacity.
      if head > 1_024, head * 2 > order.count {
        order.removeFirst(head)
        head = 0
      }
    }

    private mutating func entry(for value: Verified<Payload>) -> Entry {
      let jws = value.jws.utf8
      guard let dot = jws.firstIndex(of: UInt8(ascii: ".")) else {
        return Entry(payload: value.payload, rest: value.jws, sharesHeader: false)
      }
      let headerSegment = value.jws[..<dot]
      if header == nil { header = String(headerSegment) }
      // Lengths first: a header of another signer almost always differs in length.
      guard let header, header.utf8.count == headerSegment.utf8.count, header == headerSegment
      else {
        return Entry(payload: value.payload, rest: value.jws, sharesHeader: false)
      }
      return Entry(payload: value.payload, rest: String(value.jws[dot...]), sharesHeader: true)
    }
  }

  /// A shard's bounds.
  private struct Limits {
    var count: Int
    var bytes: Int
  }

  private final class Shard: Sendable {
    let state = Mutex(ShardState())
  }

  private static var shardCount: Int { 16 }
  private let shards: [Shard] = (0..<SignedValueCache.shardCount).map { _ in Shard() }
  private let limits: Limits

  /// The most values kept when no bound is given (see
  /// ``SimulatorConfiguration/signedValueCacheLimit``).
  package static var defaultLimit: Int { 16_384 }

  /// The most bytes kept when no bound is given: 48 MiB, about 2.9 KB a value at the default
  /// limit. Transactions, renewal information and app transactions (about 2 KB an entry) stay
  /// under it at 16,384 values; notifications, which carry two signed values inside their
  /// payload, reach it first (about 4,000 of them).
  package static var defaultByteLimit: Int { 48 << 20 }

  /// Creates an empty cache.
  ///
  /// - Parameters:
  ///   - limit: the most values kept (at least one per shard).
  ///   - byteLimit: the most bytes kept, counted as ``bytes`` counts them (at least one byte
  ///     per shard); a value larger than a shard's share is served but not kept.
  package init(
    limit: Int = SignedValueCache.defaultLimit, byteLimit: Int = SignedValueCache.defaultByteLimit
  ) {
    limits = Limits(
      count: max(1, limit / Self.shardCount), bytes: max(1, byteLimit / Self.shardCount))
  }

  /// The signed value for `key`, if it is held.
  package func cached(_ key: Key) -> Verified<Payload>? {
    shard(for: key).state.withLock { $0.value(key) }
  }

  private func shard(for key: Key) -> Shard {
    shards[Int(UInt(bitPattern: key.id.hashValue) % UInt(Self.shardCount))]
  }

  /// The signed value for `key`, made by `make` when it is not held.
  package func value(
    for key: Key, make: () throws(CryptoError) -> Verified<Payload>
  ) throws(CryptoError) -> Verified<Payload> {
    let shard = shard(for: key)
    if let cached = shard.state.withLock({ $0.value(key) }) { return cached }
    // Signing happens outside the lock; two threads may sign the same value at once, and the
    // second result simply replaces the first (both are valid signatures of the same payload).
    let made = try make()
    let limits = limits
    shard.state.withLock { state in
      if key.version > 0 { state.remove(Key(id: key.id, version: key.version - 1)) }
      state.insert(made, for: key, limits: limits)
    }
    return made
  }

  /// How many values are held.
  package var count: Int { shards.reduce(0) { $0 + $1.state.withLock { $0.entries.count } } }

  /// The bytes the held values count against the byte bound: the JWS bytes each keeps (without
  /// the shared header) and its payload's inline size.
  package var bytes: Int { shards.reduce(0) { $0 + $1.state.withLock { $0.bytes } } }
}
