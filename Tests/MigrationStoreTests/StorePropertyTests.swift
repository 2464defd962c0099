import MigrationStore
import Testing

@Suite("Store properties")
struct StorePropertyTests {
  @Test("the first claim sets a property and later claims return it unchanged")
  func firstClaimWins() throws {
    let store = try MigrationStore(inMemoryWithClock: { 0 })
    #expect(try store.property(MigrationStore.appStorePropertyName) == nil)
    #expect(
      try store.claimProperty(MigrationStore.appStorePropertyName, value: "simulator", now: 1)
        == "simulator")
    #expect(
      try store.claimProperty(MigrationStore.appStorePropertyName, value: "apple", now: 2)
        == "simulator")
    #expect(try store.property(MigrationStore.appStorePropertyName) == "simulator")
  }
}
