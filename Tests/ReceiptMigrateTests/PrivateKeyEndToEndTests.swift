import Foundation
import TestDirectories
import Testing

/// `ASC_PRIVATE_KEY` end to end: the built tool talks to a served simulator with the key given
/// as text, and the key's body is then looked for in everything the tool printed or wrote.
@Suite("ASC_PRIVATE_KEY, end to end", .timeLimit(.minutes(3)))
struct PrivateKeyEndToEndTests {
  /// A working directory holding a generated world in `world/`.
  func worldDirectory() throws -> URL {
    try TemporaryDirectory.make(prefix: "key-text") { directory in
      let generated = try Tool.run(
        ["simulator", "generate", "--accounts", "30", "--seed", "12", "--out", "world"],
        in: directory)
      try #require(generated.status == 0, "\(generated.standardError)")
    }
  }

  /// Every regular file under `folder`, recursively.
  func files(under folder: URL) -> [URL] {
    let enumerator = FileManager.default.enumerator(
      at: folder, includingPropertiesForKeys: [.isRegularFileKey])
    return (enumerator?.allObjects as? [URL] ?? []).filter {
      (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
    }
  }

  @Test("a run with the key as text works, and its body is in no output, file or store")
  func keyNeverWritten() throws {
    let directory = try worldDirectory()
    defer { TemporaryDirectory.remove(directory) }
    let server = try AuditCommandEndToEndTests.Server(
      world: "world", clock: nil, latency: nil, in: directory, extra: ["--log", "off"])
    defer { server.stop() }
    var environment = server.environment
    // The key moves from the file into the variable; the file goes, so nothing can read it.
    let keyPath = try #require(environment["ASC_PRIVATE_KEY_PATH"])
    environment["ASC_PRIVATE_KEY_PATH"] = nil
    let keyFile = URL(fileURLWithPath: keyPath, relativeTo: directory)
    let pem = try String(contentsOf: keyFile, encoding: .utf8)
    try FileManager.default.removeItem(at: keyFile)
    environment["ASC_PRIVATE_KEY"] = pem
    let lines = pem.split(whereSeparator: \.isNewline).map(String.init)
      .filter { !$0.hasPrefix("-----") }
    try #require(!lines.isEmpty && lines.allSatisfy { $0.count >= 16 })
    let body = lines.joined()

    let migrated = try Tool.run(
      [
        "migrate", "--legacy", "world/receipts.ndjson", "--catalog", "world/products.csv",
        "--current-entitlements", "world/current-entitlements.csv", "--as-of",
        "2025-11-01T00:00:00Z", "--receipt-root", "world/signing/root.pem",
      ], in: directory, environment: environment)
    #expect(migrated.status == 0, "\(migrated.standardError)")
    #expect(migrated.standardOutput.contains("App Store: App Store Server API, NOT Apple"))
    let shown = try Tool.run(["recipe", "show"], in: directory, environment: environment)
    #expect(shown.status == 0, "\(shown.standardError)")
    let explained = try Tool.run(["runs"], in: directory, environment: environment)

    var scanned: [(name: String, bytes: Data)] = [
      ("migrate stdout", Data(migrated.standardOutput.utf8)),
      ("migrate stderr", Data(migrated.standardError.utf8)),
      ("recipe show stdout", Data(shown.standardOutput.utf8)),
      ("recipe show stderr", Data(shown.standardError.utf8)),
      ("runs output", Data((explained.standardOutput + explained.standardError).utf8)),
    ]
    let written =
      files(under: directory.appendingPathComponent("Reports"))
      + files(under: directory.appendingPathComponent(".receipt-migrate"))
    #expect(written.contains { $0.lastPathComponent == "run.json" })
    #expect(written.contains { $0.lastPathComponent == "state.sqlite" })
    for file in written {
      scanned.append((file.path, try Data(contentsOf: file)))
    }
    for (name, bytes) in scanned {
      #expect(bytes.range(of: Data(body.utf8)) == nil, "the key's body is in \(name)")
      for line in lines {
        #expect(bytes.range(of: Data(line.utf8)) == nil, "a line of the key is in \(name)")
      }
    }
  }

  @Test("both ways set exit 3 naming both; a malformed key exits 3 naming the variable only")
  func refusals() throws {
    let directory = try worldDirectory()
    defer { TemporaryDirectory.remove(directory) }
    let secret = "U0VDUkVUQk9EWVNIT1VMRE5PVExFQUtTRUNSRVRCT0RZ"
    var environment = [
      "ASC_ISSUER_ID": "3c5b1f0e-6a2d-4e8b-9f71-0d4c2b8a6e13", "ASC_KEY_ID": "SIMKEY0001",
      "APP_BUNDLE_ID": "com.example.studio",
      "APP_STORE_ROOT_CERTIFICATES": "world/signing/root.pem",
      "APP_APPLE_ID": "1234567890",
      "ASC_PRIVATE_KEY": "-----BEGIN PRIVATE KEY-----\n\(secret)\n-----END PRIVATE KEY-----\n",
    ]
    let arguments = ["migrate", "--world", "world"]
    let malformed = try Tool.run(arguments, in: directory, environment: environment)
    #expect(malformed.status == 3, "\(malformed.standardError)")
    #expect(malformed.standardError.contains("ASC_PRIVATE_KEY:"), "\(malformed.standardError)")
    #expect(!(malformed.standardOutput + malformed.standardError).contains(secret))

    environment["ASC_PRIVATE_KEY_PATH"] = "world/signing/api-key.p8"
    let both = try Tool.run(arguments, in: directory, environment: environment)
    #expect(both.status == 3, "\(both.standardError)")
    #expect(
      both.standardError.contains("both ASC_PRIVATE_KEY_PATH and ASC_PRIVATE_KEY are set"),
      "\(both.standardError)")
    #expect(!(both.standardOutput + both.standardError).contains(secret))
  }
}
