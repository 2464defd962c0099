import AppStoreServerAPI
import ArgumentParsing
import Foundation
import MigrationPipeline

/// `receipt-migrate lookup`: one customer's history and statuses from the configured App Store.
struct LookupCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lookup",
    abstract: "Fetch, verify and summarise one customer's history and subscription statuses.",
    discussion: """
      Credentials come from ASC_ISSUER_ID, ASC_KEY_ID, ASC_PRIVATE_KEY_PATH (or ASC_PRIVATE_KEY), \
      APP_BUNDLE_ID, \
      APP_APPLE_ID, APP_STORE_ROOT_CERTIFICATES and APP_STORE_ENVIRONMENT (see README). Exits 0 \
      when the customer was found, 3 on a configuration or authentication error, 4 when the id \
      is unknown or the App Store could not be reached.
      """
  )

  @Argument(help: ArgumentHelp("Any transaction id of the customer.", valueName: "transaction-id"))
  var transactionId: String

  @Flag(help: "Print JSON instead of a summary.")
  var json = false

  @Option(
    help: ArgumentHelp(
      "The configuration file (default: .receipt-migrate/config.json when it exists).",
      valueName: "file"))
  var config: String?

  func run() async throws {
    let settings: LookupSettings
    let client: AppStoreServerAPIClient
    do {
      let choice = try ToolConfiguration.resolve(
        file: config, environment: ProcessInfo.processInfo.environment)
      guard case .apple(let configured) = choice else {
        throw ToolFailure.configuration(
          "lookup needs App Store credentials: set ASC_ISSUER_ID, ASC_KEY_ID, "
            + "ASC_PRIVATE_KEY_PATH (or ASC_PRIVATE_KEY) and APP_BUNDLE_ID (receipt-migrate simulator serve prints "
            + "them for a simulated world)")
      }
      settings = configured
      client = try AppStoreServerAPIClient(configuration: settings.configuration)
    } catch let failure as ToolFailure {
      throw failure
    } catch {
      throw ToolFailure.configuration("\(error)")
    }
    let report = await CustomerLookup.run(
      transactionId, client: client, environment: settings.environment, json: json)
    print(report.text, terminator: report.text.hasSuffix("\n") ? "" : "\n")
    if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
  }
}
