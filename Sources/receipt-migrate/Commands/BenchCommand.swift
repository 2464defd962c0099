import ArgumentParsing

/// `receipt-migrate bench`: rerunnable performance measurements that print their figures.
struct BenchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract: "Measure throughput and memory; see Documentation/Performance.md.",
    discussion: "Build in release mode first: swift run -c release receipt-migrate bench <name>.",
    subcommands: [
      AuditBenchCommand.self,
      IngestBenchCommand.self, VerifyBenchCommand.self, ReceiptsBenchCommand.self,
      ServerBenchCommand.self, BackfillBenchCommand.self, ClientBenchCommand.self,
      ScaleBenchCommand.self,
    ]
  )
}
