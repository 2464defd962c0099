import Foundation
import TestDirectories
import Testing

/// `bench scale` at a size a test affords: the store is built in parts whose ids never meet,
/// and compare and report run on it as child processes. Our own code on both sides.
@Suite("receipt-migrate bench scale, end to end", .timeLimit(.minutes(3)))
struct ScaleBenchCommandEndToEndTests {
  @Test("60 accounts in three parts: every account stored once, compared and reported")
  func threeParts() throws {
    let directory = try TemporaryDirectory.make(prefix: "bench-scale")
    defer { TemporaryDirectory.remove(directory) }
    let result = try Tool.run(
      ["bench", "scale", "--accounts", "60", "--part", "20", "--keep", "scratch", "--json"],
      in: directory)
    #expect(result.status == 0, "\(result.standardError)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(json["accounts"] as? Int == 60)
    #expect((json["peak_memory_mb"] as? Double ?? 0) > 0)
    #expect((json["compare_accounts_per_second"] as? Double ?? 0) > 0)
    #expect((json["report_seconds"] as? Double ?? 0) > 0)

    // One row per account in the report, with ids running on across the parts.
    let csv = try String(
      contentsOf: directory.appendingPathComponent("scratch/reports/latest/discrepancies.csv"),
      encoding: .utf8)
    let ids = csv.split(whereSeparator: \.isNewline).dropFirst().map { $0.split(separator: ",")[0] }
    #expect(ids.count == 60, "\(csv.prefix(300)) \(result.standardError)")
    #expect(Set(ids).count == 60)
    #expect(ids.contains("u000060") && ids.contains("u000021"))
    // Parts share one signing root, so nothing failed verification or went unresolved.
    #expect(!csv.contains("unresolved"))
  }
}
