import CryptoSupport
import Testing

@Suite("Name-based UUIDs (version 5)")
struct NameBasedUUIDTests {
  @Test("the RFC 9562 example: www.example.com in the DNS namespace")
  func rfcVector() {
    #expect(
      NameBasedUUID.version5(
        name: "www.example.com", namespace: "6ba7b810-9dad-11d1-80b4-00c04fd430c8")
        == "2ed6657d-e927-568b-95e1-2665a8aea6a2")
  }

  // Printed by Python 3: uuid.uuid5(uuid.UUID(namespace), name).
  @Test(
    "the same UUIDs as Python's uuid.uuid5",
    arguments: [
      (
        "6ba7b810-9dad-11d1-80b4-00c04fd430c8", "python.org", "886313e1-3b8a-5372-9b90-0c9aee199e5d"
      ),
      ("6f3c1a52-9b0e-4d7a-8f21-5c4e3b2a1d09", "acct-0001", "017ebffa-af59-5ba3-ba84-c7890fb509a5"),
      ("6F3C1A52-9B0E-4D7A-8F21-5C4E3B2A1D09", "42", "2762640e-d5c1-55ab-bfc8-07a358840969"),
      ("6f3c1a52-9b0e-4d7a-8f21-5c4e3b2a1d09", "zürich", "802714ee-dc11-5aac-872c-0a1c4fa551b7"),
    ])
  func python(namespace: String, name: String, expected: String) {
    #expect(NameBasedUUID.version5(name: name, namespace: namespace) == expected)
  }

  @Test(
    "text that is not a UUID is refused",
    arguments: [
      "", "6ba7b810-9dad-11d1-80b4-00c04fd430c", "6ba7b810x9dad-11d1-80b4-00c04fd430c8",
      "6ba7b810-9dad-11d1-80b4-00c04fd430cg", "{6ba7b810-9dad-11d1-80b4-00c04fd430c8}",
    ])
  func notUUIDs(text: String) {
    #expect(NameBasedUUID.bytes(of: text) == nil)
    #expect(NameBasedUUID.version5(name: "a", namespace: text) == nil)
  }

  @Test("SHA-1 matches the FIPS 180 example")
  func sha1() {
    #expect(Hex.encode(SHA1.hash(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
  }
}
