import Entitlements
import Testing

/// `AccountKey` must behave as SQLite's `BINARY` collation does: equal exactly when the bytes
/// are, ordered as the bytes are. Kind of evidence: the standard library's own byte arrays
/// (`Array(utf8)`, `==` and `lexicographicallyPrecedes` on `[UInt8]`) judge our type.
@Suite("Account ids as keys compare bytes")
struct AccountKeyTests {
  /// Ids chosen to meet every way `String` and bytes disagree: canonically equivalent pairs
  /// (precomposed or not, accents in either order, Hangul), a prefix of another, empty, and
  /// ones long enough to be stored outside the string's inline form.
  static let ids: [String] = [
    "", "a", "ab", "a\u{0}", "jos\u{E9}@example.com", "jose\u{301}@example.com",
    "q\u{323}\u{307}", "q\u{307}\u{323}", "\u{1E0B}\u{323}", "\u{1E0D}\u{307}", "\u{AC00}",
    "\u{1100}\u{1161}", "\u{212B}", "\u{C5}", "A\u{30A}",
    String(repeating: "long-account-id-", count: 8) + "\u{E9}",
    String(repeating: "long-account-id-", count: 8) + "e\u{301}",
  ]

  @Test("equal, hashed and ordered as their bytes, for every pair")
  func agreesWithBytes() {
    for lhs in Self.ids {
      for rhs in Self.ids {
        let (left, right) = (AccountKey(lhs), AccountKey(rhs))
        let sameBytes = Array(lhs.utf8) == Array(rhs.utf8)
        #expect((left == right) == sameBytes, "\(Array(lhs.utf8)) vs \(Array(rhs.utf8))")
        #expect(AccountKey.haveSameBytes(lhs, rhs) == sameBytes)
        #expect((left < right) == Array(lhs.utf8).lexicographicallyPrecedes(Array(rhs.utf8)))
        if sameBytes { #expect(left.hashValue == right.hashValue) }
      }
    }
  }

  @Test("a set and a dictionary keep canonically equivalent ids apart, unlike String keys")
  func keepsEquivalentIdsApart() {
    let equivalentPairs = Self.ids.count { lhs in
      Self.ids.contains { $0 == lhs && Array($0.utf8) != Array(lhs.utf8) }
    }
    #expect(equivalentPairs >= 8, "the fixture must hold equivalent pairs to mean anything")
    #expect(Set(Self.ids.map { AccountKey($0) }).count == Self.ids.count)
    #expect(Set(Self.ids).count < Self.ids.count, "String merges them: why the type exists")
    var byKey: [AccountKey: Int] = [:]
    for (index, id) in Self.ids.enumerated() { byKey[AccountKey(id)] = index }
    for (index, id) in Self.ids.enumerated() { #expect(byKey[AccountKey(id)] == index) }
  }

  @Test("a literal and a description are the id itself")
  func literalAndDescription() {
    let key: AccountKey = "acct-1"
    #expect(key.id == "acct-1")
    #expect("\(key)" == "acct-1")
  }
}
