import Foundation
import TestDirectories
import Testing

/// `bench backfill` wires three processes together through `simulator generate`'s files and
/// `simulator serve`'s banner and summary; a tiny run shows the wiring holds and the figures
/// agree with each other.
@Suite("receipt-migrate bench backfill, end to end")
struct BackfillBenchCommandTests {
  @Test("a tiny world without a binding limit: every figure printed, requests at the floor")
  func tinyRun() throws {
    let directory = try TemporaryDirectory.make(prefix: "bench-backfill")
    defer { TemporaryDirectory.remove(directory) }
    let result = try Tool.run(
      [
        "bench", "backfill", "--accounts", "40", "--seed", "3", "--rate-limit", "5000",
        "--latency", "0", "--concurrency", "8", "--keep", "scratch",
      ], in: directory)
    #expect(result.status == 0, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("bench backfill: 40 accounts (seed 3)") == true)
    #expect(lines.contains("requests equal the floor (target the floor): met"))
    #expect(lines.contains { $0.hasPrefix("429s: 0 of ") && $0.hasSuffix(": met") })
    #expect(lines.contains { $0.hasPrefix("cross-check: ") && $0.hasSuffix(": equal") })
    #expect(lines.contains { $0.hasPrefix("  Production transaction_history ") })
    #expect(lines.contains { $0.hasPrefix("peak memory of the run: ") })
    #expect(lines.contains { $0.hasPrefix("compare + report: ") })
    let report = try #require(lines.first { $0.hasPrefix("report: ") }?.dropFirst(8))
    #expect(FileManager.default.fileExists(atPath: "\(report)/report.html"))
  }

  @Test("--client both runs the world twice and prints the clients' CPU per request side by side")
  func bothClients() throws {
    let directory = try TemporaryDirectory.make(prefix: "bench-backfill")
    defer { TemporaryDirectory.remove(directory) }
    let result = try Tool.run(
      [
        "bench", "backfill", "--accounts", "20", "--seed", "3", "--rate-limit", "5000",
        "--latency", "0", "--concurrency", "4", "--client", "both",
      ], in: directory)
    #expect(result.status == 0, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.filter { $0 == "requests equal the floor (target the floor): met" }.count == 2)
    #expect(lines.contains { $0.hasPrefix("CPU per request (urlsession client): ") })
    #expect(lines.contains { $0.hasPrefix("CPU per request (sockets client): ") })
    #expect(lines.contains { $0.hasPrefix("  urlsession ") })
    #expect(lines.contains { $0.hasPrefix("  sockets ") })
    #expect(lines.contains { $0.hasPrefix("  backfill CPU per request: urlsession / sockets = ") })
  }
}
