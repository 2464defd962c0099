import ArgumentParsing
import Benchmarks

/// `receipt-migrate bench receipts`.
struct ReceiptsBenchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "receipts",
    abstract: "Raw app receipts with 50 in-app purchases parsed per second on one core.",
    discussion:
      "Pin it to one core for the per-core figure: taskset -c 1 receipt-migrate bench receipts."
  )

  func run() async throws {
    print(try RawReceiptBenchmark.run())
  }
}
