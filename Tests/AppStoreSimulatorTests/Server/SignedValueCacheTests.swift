import AppStoreServerAPI
import AppStoreSimulator
import Testing

/// The simulator's signing cache stays within its bound and never serves a changed value's
/// old signature. Our own code only.
@Suite("SignedValueCache")
struct SignedValueCacheTests {
  private func value(_ id: String) -> Verified<AppTransaction> {
    Verified(payload: AppTransaction(appTransactionId: id), jws: "jws-\(id)")
  }

  @Test("never holds more than its limit, and evicts the oldest first")
  func bounded() throws {
    let cache = SignedValueCache<AppTransaction>(limit: 160)
    var signed = 0
    for index in 0..<2_000 {
      let key = SignedValueCache<AppTransaction>.Key(id: "id-\(index)", version: 0)
      _ = try cache.value(for: key) {
        signed += 1
        return value("id-\(index)")
      }
    }
    #expect(signed == 2_000)
    #expect(cache.count <= 160)
    #expect(cache.cached(.init(id: "id-1999", version: 0)) != nil)
    #expect(cache.cached(.init(id: "id-0", version: 0)) == nil)
  }

  @Test("a value asked for again is served without signing; a new version replaces the old")
  func versions() throws {
    let cache = SignedValueCache<AppTransaction>(limit: 160)
    var signed = 0
    func ask(_ version: Int64) throws -> String {
      try cache.value(for: .init(id: "a", version: version)) {
        signed += 1
        return Verified(payload: AppTransaction(appTransactionId: "a"), jws: "v\(version)")
      }.jws
    }
    #expect(try ask(0) == "v0")
    #expect(try ask(0) == "v0")
    #expect(signed == 1)
    #expect(try ask(1) == "v1")
    #expect(cache.cached(.init(id: "a", version: 0)) == nil)
    #expect(cache.count == 1)
  }

  @Test("never counts more bytes than its byte limit, however many values pass through")
  func boundedInBytes() throws {
    // 16 shards of 4 KiB each; every value counts its JWS rest and its payload's inline size.
    let byteLimit = 64 << 10
    let cache = SignedValueCache<AppTransaction>(limit: 1 << 20, byteLimit: byteLimit)
    let header = String(repeating: "h", count: 2_900)
    var largest = 0
    for index in 0..<5_000 {
      let key = SignedValueCache<AppTransaction>.Key(id: "id-\(index)", version: 0)
      _ = try cache.value(for: key) {
        Verified(
          payload: AppTransaction(appTransactionId: "id-\(index)"),
          jws: header + ".payload-\(index)." + String(repeating: "s", count: index % 700))
      }
      largest = max(largest, cache.bytes)
    }
    #expect(largest <= byteLimit)
    #expect(cache.count > 0)
    #expect(cache.cached(.init(id: "id-4999", version: 0)) != nil)
  }

  @Test("a value served from the cache is the JWS it was given, byte for byte")
  func sharedHeaderIsServedWhole() throws {
    let cache = SignedValueCache<AppTransaction>(limit: 160)
    let header = String(repeating: "x5c", count: 900)
    let values = [
      header + ".first.signature",
      header + ".second.signature",
      "another-header.third.signature",
      "no-dots-at-all",
    ]
    for (index, jws) in values.enumerated() {
      let key = SignedValueCache<AppTransaction>.Key(id: "id-\(index)", version: 0)
      _ = try cache.value(for: key) {
        Verified(payload: AppTransaction(appTransactionId: "id-\(index)"), jws: jws)
      }
    }
    for (index, jws) in values.enumerated() {
      #expect(cache.cached(.init(id: "id-\(index)", version: 0))?.jws == jws)
    }
    // The shared header is held once: the first two count only what follows it.
    #expect(cache.bytes < header.utf8.count * 2)
  }
}
