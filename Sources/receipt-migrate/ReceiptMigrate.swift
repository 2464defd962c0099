import ArgumentParsing

/// The `receipt-migrate` command: moves a server from `/verifyReceipt` to the App Store Server
/// API and proves, account by account, what changes.
@main
struct ReceiptMigrate: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "receipt-migrate",
    abstract: "Move from /verifyReceipt to the App Store Server API, and prove what changes.",
    discussion: """
      Exit codes: 0 done (no drift over the threshold), 1 discrepancies over the threshold you \
      set, 2 usage error, 3 configuration or authentication error, 4 finished but some inputs or \
      accounts could not be used, 70 internal error.
      """,
    version: ToolVersion.current,
    subcommands: [
      MigrateCommand.self, AuditCommand.self, IngestCommand.self, BackfillCommand.self,
      CompareCommand.self,
      ReportCommand.self, RunsCommand.self, DiffCommand.self, RecipeCommand.self,
      ExplainCommand.self,
      ReceiptCommand.self, DecodeCommand.self,
      LookupCommand.self, LinkCommand.self, NotificationsCommand.self,
      SimulatorCommand.self,
      BenchCommand.self,
    ]
  )
}
