import AppStoreServerAPI
import ArgumentParsing
import Foundation

/// `receipt-migrate lookup`: one customer's history and statuses from the configured App Store.
struct LookupCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lookup",
    abstract: "Fetch, verify and summarise one customer's history and subscription statuses.",
    discussion: """
      Credentials come from ASC_ISSUER_ID, ASC_KEY_ID, ASC_PRIVATE_KEY_PATH, APP_BUNDLE_ID, \
      APP_APPLE_ID, APP_STORE_ROOT_CERTIFICATES and APP_STORE_ENVIRONMENT (see README). Exits 0 \
      when the customer was found, 3 on a configuration or authentication error, 4 when the id \
      is unknown or the App Store could not be reached.
      """
  )

  @Argument(help: ArgumentHelp("Any transaction id of the customer.", valueName: "transaction-id"))
  var transactionId: String

  @Flag(help: "Print JSON instead of a summary.")
  var json = false

  func run() async throws {
    let settings: LookupSettings
    let client: AppStoreServerAPIClient
    do {
      settings = try LookupSettings.read(from: ProcessInfo.processInfo.environment)
      client = try AppStoreServerAPIClient(configuration: settings.configuration)
    } catch {
      throw ToolFailure.configuration("\(error)")
    }
    let report = await CustomerLookup.run(
      transactionId, client: client, environment: settings.environment, json: json)
    print(report.text, terminator: report.text.hasSuffix("\n") ? "" : "\n")
    if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
  }
}
