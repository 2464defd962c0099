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
}
