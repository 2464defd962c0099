import ArgumentParsing

/// The root of a small command tree shaped like receipt-migrate's: two subcommands, one of
/// which has nested subcommands and a default.
struct SampleTool: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "receipt-migrate",
    abstract: "Move a server from verifyReceipt to the App Store Server API.",
    version: "1.2.3",
    subcommands: [Ingest.self, Store.self]
  )
}
